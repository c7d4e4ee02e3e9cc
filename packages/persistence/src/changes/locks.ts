import type * as SqlClient from "@effect/sql/SqlClient"
import { type Changes, isUuid } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { keyPropertyExists } from "../platform/KeyProperty.js"
import type { PricingInputs } from "../quotes/PricingInputs.js"
import type { ChangeFacts } from "./ChangeFacts.js"

// The room type locks of a change and the snapshot its decision is priced on.

/**
 * Locks the property's room types `ids` (the old and the new stay's), in id order so that two changes between
 * the same two room types cannot deadlock; an id naming no room type locks nothing.
 */
export const lockRoomTypes = (sql: SqlClient.SqlClient, propertyId: string, ids: ReadonlyArray<string>) => {
  const sorted = [...new Set(ids.filter(isUuid))].sort()
  return sorted.length === 0 ? Effect.void : sql`
    SELECT id FROM room_types WHERE property_id = ${propertyId} AND id IN ${sql.in(sorted)}
    ORDER BY id FOR NO KEY UPDATE`.pipe(Effect.asVoid)
}

/**
 * The pricing snapshot of the target plan at `now`, counting the guest's redemptions but not this reservation's
 * own (a change re-checks its code's caps without counting itself twice).
 */
export const snapshotFor = (
  inputs: PricingInputs,
  propertyId: string,
  facts: ChangeFacts,
  target: Changes.StayTerms,
  now: Date
) =>
  inputs.loadForPlan(propertyId, target.ratePlanId, now, {
    guestId: facts.row.guest_id,
    excludeReservationId: facts.row.id
  }).pipe(Effect.flatMap(keyPropertyExists(propertyId)))
