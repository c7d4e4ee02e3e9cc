import { Changes, type SalesContext } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type BlockRead, pickupBlockOf } from "../blocks/BlockSql.js"
import type { Inventory } from "../inventory/Inventory.js"
import { type PricingInputs, type SnapshotPlan, type SnapshotRoomType, staySpan } from "../quotes/PricingInputs.js"
import type { ChangeFacts } from "./ChangeFacts.js"
import { keyPropertyExists } from "../platform/KeyProperty.js"
import { roomsForChange, type StayRooms } from "./rooms.js"

// What `PATCH /reservations/{id}` (under its locks) and `GET /reservations/{id}/change-quote` (without them) both
// run, once: the snapshot of the target plan, the domain's plan of the change (`Changes.planChange`), the rooms
// of the new stay (only a new stay reads the inventory) and the outcome with them (`Changes.outcomeOf`). The
// decisions are the domain's; this loads what they are taken on.

/**
 * The pricing snapshot of the target plan at `now`, counting the guest's redemptions but not this reservation's
 * own (a change re-checks its code's caps without counting itself twice).
 */
const snapshotFor = (inputs: PricingInputs["Service"], propertyId: string, facts: ChangeFacts, target: Changes.StayTerms, now: Date) =>
  inputs.loadForPlan(propertyId, target.ratePlanId, now, staySpan(target), {
    guestId: facts.row.guest_id,
    excludeReservationId: facts.row.id
  }).pipe(Effect.flatMap(keyPropertyExists(propertyId)))

export type ChangeOutcome = Changes.ChangeOutcome<SnapshotPlan, SnapshotRoomType>

export interface DecidedChange {
  readonly outcome: ChangeOutcome
  readonly rooms: StayRooms
}

export const decideChange = (
  deps: { readonly inputs: PricingInputs["Service"]; readonly inventory: Inventory["Service"] },
  actor: { readonly propertyId: string; readonly salesContext: SalesContext },
  facts: ChangeFacts,
  start: Changes.ChangeStart,
  /** The reservation's block when it is a pickup (read by the caller, under its lock for a PATCH). */
  block: BlockRead | undefined,
  options: { readonly trace: boolean; readonly now: Date }
) =>
  Effect.gen(function*() {
    const { propertyId } = actor
    const { now } = options
    const snapshot = yield* snapshotFor(deps.inputs, propertyId, facts, start.target, now)
    const planned = yield* Changes.planChange({
      reservation: facts.reservation,
      start,
      catalogue: snapshot,
      salesContext: actor.salesContext,
      trace: options.trace,
      block: block === undefined ? undefined : pickupBlockOf(block)
    })
    const rooms = yield* Option.match(planned.restay, {
      onNone: () => Effect.succeed<StayRooms>({ available: 1, heldOverbooking: [] }),
      onSome: (restay) => roomsForChange(deps.inventory, { propertyId, facts, target: start.target, blockId: restay.blockId, now })
    })
    const decided: DecidedChange = { outcome: Changes.outcomeOf(planned, rooms.available), rooms }
    return decided
  })
