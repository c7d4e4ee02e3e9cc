// The live-hold caps of a hold. Two holds of one guest,
// or of one API key, must not both count N-1 live holds and both write the Nth: the count is read under the
// guest's row lock and the key's row lock (`FOR NO KEY UPDATE`: foreign-key checks of other writers are not
// blocked). Lock order inside a hold: room type → promo codes → guest → API key. Nothing else locks a guest
// or key row and then a room type (loyalty redemptions lock only the guest row), so no cycle.
import type * as SqlClient from "@effect/sql/SqlClient"
import { Booking } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { liveHold } from "../HoldWindow.js"
import type { HoldActor } from "./requests.js"

/** Takes the guest's and the key's locks, then fails with 409 `hold_limit_reached` when a cap is full. */
export const checkHoldLimits = (sql: SqlClient.SqlClient, actor: HoldActor, guestId: string, now: Date) =>
  Effect.gen(function*() {
    // The guest's lock and the key's cap in one statement (the cap never changes, so it is read unlocked;
    // `OF g`: only the guest row is locked). Only a capped key's holds then queue on the key's row.
    const [locked] = yield* sql<{ max_live_holds: number | null }>`
      SELECT (SELECT k.max_live_holds FROM api_keys k WHERE k.id = ${actor.apiKeyId}) AS max_live_holds
      FROM guests g WHERE g.id = ${guestId}
      FOR NO KEY UPDATE OF g`
    // No guest row (guests are never deleted, and the request's guest was found before): the cap alone.
    const maxLiveHolds = locked !== undefined ? locked.max_live_holds : (yield* sql<{ max_live_holds: number | null }>`
      SELECT max_live_holds FROM api_keys WHERE id = ${actor.apiKeyId}`)[0]?.max_live_holds ?? null
    if (maxLiveHolds !== null) {
      yield* sql`SELECT id FROM api_keys WHERE id = ${actor.apiKeyId} FOR NO KEY UPDATE`
    }
    // A separate statement after the locks: its snapshot then sees every hold committed by an earlier holder.
    const [counts] = yield* sql<{ guest: number; api_key: number }>`
      SELECT count(*) FILTER (WHERE r.guest_id = ${guestId})::int AS guest,
             count(*) FILTER (WHERE r.api_key_id = ${actor.apiKeyId})::int AS api_key
      FROM reservations r
      WHERE (r.guest_id = ${guestId} OR r.api_key_id = ${actor.apiKeyId}) AND ${liveHold(sql, "r", now)}`
    return yield* Booking.checkHoldLimits({
      guest: counts.guest,
      apiKey: counts.api_key,
      apiKeyMax: maxLiveHolds
    })
  })
