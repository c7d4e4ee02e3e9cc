// The locks of a hold and the live-hold counts its caps are decided on. Two holds of one guest, or of one
// API key, must not both count N-1 live holds and both write the Nth: the counts are read after the guest's
// row lock and the key's row lock were granted (`FOR NO KEY UPDATE`: foreign-key checks of other writers are
// not blocked). Lock order inside a hold: guest → API key (only a capped one) → room type → the pickup's block
// → promo codes (../Holds.ts). A room type's inventory rows (periods out of order, sell limits and overbooking,
// ../../inventory/) are never locked themselves: their writers take the room type's lock and nothing else, so
// every count under that lock sees them settled. The guest and key come first so that the room type's lock, the
// one every hold of a room type queues on, is held for as few round trips as possible: the counts are read in
// the statement that takes it.
// No cycle: loyalty redemptions lock only the guest row, revocation only the key row, promo-code writes only
// the code row; confirmations and check-ins lock a reservation then the room type, and holds never wait on a
// reservation row. A booking of several rooms takes the same locks, with every room type of it in id order
// (`lockForRooms`), so bookings and holds cannot deadlock each other either.
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { type Booking, isUuid } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { liveHold } from "../HoldWindow.js"
import type { HoldActor } from "./requests.js"

/** A malformed id matches no row instead of failing the statement (a text compared with a uuid column). */
const uuidOrNull = (id: string) => isUuid(id) ? id : null

/**
 * The guest's lock and, when the key is capped, the key's: before the room type's lock. Answers the key's cap
 * and whether the guest is the property's. With a promo code the request is checked only after the locks, so
 * the guest may be missing: then only the cap is read, and the check answers 404 `guest_not_found` as usual.
 */
const lockGuestAndKey = (sql: SqlClient.SqlClient, actor: HoldActor, guestId: string) =>
  Effect.gen(function*() {
    // The guest's lock and the key's cap in one statement (the cap never changes, so it is read unlocked;
    // `OF g`: only the guest row is locked). Only a capped key's holds then queue on the key's row.
    const [locked] = yield* sql<{ max_live_holds: number | null }>`
      SELECT (SELECT k.max_live_holds FROM api_keys k WHERE k.id = ${actor.apiKeyId}) AS max_live_holds
      FROM guests g WHERE g.property_id = ${actor.propertyId} AND g.id = ${uuidOrNull(guestId)}
      FOR NO KEY UPDATE OF g`
    const maxLiveHolds = locked !== undefined ? locked.max_live_holds : (yield* sql<{ max_live_holds: number | null }>`
      SELECT max_live_holds FROM api_keys WHERE id = ${actor.apiKeyId}`)[0]?.max_live_holds ?? null
    if (maxLiveHolds !== null) {
      yield* sql`SELECT id FROM api_keys WHERE id = ${actor.apiKeyId} FOR NO KEY UPDATE`
    }
    return { maxLiveHolds, guestFound: locked !== undefined }
  })

/** What the locks of a hold found: the live holds its caps are decided on, and whether the guest exists. */
export interface HoldLocks {
  readonly live: Booking.LiveHolds
  readonly guestFound: boolean
}

/**
 * Takes the hold's locks up to the room type's (guest → key → room type) and reads the live holds its caps
 * are decided on; the caller decides (`Booking.checkHoldLimits`) where the order of checks puts it.
 */
export const lockForHold = (
  sql: SqlClient.SqlClient,
  actor: HoldActor,
  request: { readonly roomTypeId: string; readonly guestId: string },
  now: Date
): Effect.Effect<HoldLocks, SqlError> =>
  lockForRooms(sql, actor, { roomTypeIds: [request.roomTypeId], guestId: request.guestId }, now)

/**
 * The locks of holds of one guest on several room types written in one transaction (a booking's rooms): guest →
 * key → each room type in id order (every writer that holds several room types' locks takes them in that
 * order, so two bookings cannot deadlock each other, nor a booking and a hold, which takes one).
 */
export const lockForRooms = (
  sql: SqlClient.SqlClient,
  actor: HoldActor,
  request: { readonly roomTypeIds: ReadonlyArray<string>; readonly guestId: string },
  now: Date
): Effect.Effect<HoldLocks, SqlError> =>
  Effect.gen(function*() {
    const { guestFound, maxLiveHolds } = yield* lockGuestAndKey(sql, actor, request.guestId)
    const roomTypeIds = [...new Set(request.roomTypeIds.filter(isUuid))].sort()
    // The room types' locks and the counts in one statement: its snapshot is taken when it starts, after the
    // guest's and key's locks were granted (READ COMMITTED: a new snapshot per statement), so it sees every
    // hold committed by an earlier holder of them. Holds of these room types committed meanwhile are no concern
    // of the caps; availability is counted by the next statement, under these locks (taken in the sort's
    // order: the locking step runs above the sort). `room_types` is selected only so that the locking CTE
    // runs. An uncapped key's holds are not counted: a busy channel's key may have thousands live, and
    // counting them under the lock would cost every hold of the room type.
    const keyId = maxLiveHolds === null ? null : actor.apiKeyId
    const [counts] = yield* sql<{ guest: number; api_key: number }>`
      WITH room_type AS (
        SELECT id FROM room_types
        WHERE property_id = ${actor.propertyId} AND id = ANY(${roomTypeIds}::uuid[])
        ORDER BY id
        FOR NO KEY UPDATE
      )
      SELECT (SELECT count(*) FROM room_type)::int AS room_types,
             count(*) FILTER (WHERE r.guest_id = ${uuidOrNull(request.guestId)})::int AS guest,
             count(*) FILTER (WHERE r.api_key_id = ${keyId})::int AS api_key
      FROM reservations r
      WHERE (r.guest_id = ${uuidOrNull(request.guestId)} OR r.api_key_id = ${keyId})
        AND ${liveHold(sql, "r", now)}`
    return { live: { guest: counts.guest, apiKey: counts.api_key, apiKeyMax: maxLiveHolds }, guestFound }
  })
