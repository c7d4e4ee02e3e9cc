// Every lock a stay's writers take, taken here and in ONE order, so two writers never wait on each other in a
// cycle. The order is `lockOrder` below; `lockStay` takes what it is given in that order, each kind in id order:
//
//   booking → its reservations → a reservation → guest → API key (a capped one) → room types → blocks → promo codes
//
// Who takes what: a booking's confirm and cancel its booking and reservations (a confirm then their room types);
// a change, a confirm and a check-in a reservation, then its room types (a change also the pickup's block and
// the plan's codes); a hold and a booking's rooms the guest, a capped key, the room types, the pickups' blocks
// and, with a promo code, the chains' codes; a block write the block's room type, then the block; periods out
// of order and inventory controls the room type alone. Loyalty redemptions lock only the guest row, revocation
// only the key row, promo-code writes only the code row. Holds never wait on a reservation row.
//
// All locks are `FOR NO KEY UPDATE` (foreign-key checks of other writers are not blocked) except the promo
// codes' (`FOR UPDATE`). The room type's lock is the one every sale of the type queues on: a room type's
// inventory rows (periods out of order, sell limits and overbooking, blocks' nights) are never locked themselves,
// their writers take the room type's lock, so every count under it sees them settled. A caller that must read
// between two of its locks (a change reads its reservation before it knows the room types) calls `lockStay`
// again, naming the kind it already holds (`after`): a kind earlier in the order is then refused as a defect.
import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { type Booking, isUuid } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { type BlockRead, findBlock } from "../blocks/BlockSql.js"
import { lockPromoCodeRowsOf } from "../quotes/pricingInputs/queries.js"
import { liveHold } from "./HoldWindow.js"

export const lockOrder = ["booking", "reservation", "guest", "roomTypes", "blocks", "promoCodes"] as const
export type LockKind = typeof lockOrder[number]

/** What to lock; every kind is optional and taken in `lockOrder`. */
export interface StayLockSet {
  /** A booking's row, then its reservations' rows in id order. */
  readonly booking?: string | undefined
  /** One reservation's row (in a statement of its own: ReservationLock.ts says why). */
  readonly reservation?: string | undefined
  /**
   * A hold's guest and, when the key caps its live holds, the key: the live-hold counts are then read in the
   * statement that takes the room types' locks, so the lock every hold of the type queues on is held for as few
   * round trips as possible.
   */
  readonly guest?: { readonly guestId: string; readonly apiKeyId: string } | undefined
  readonly roomTypes?: ReadonlyArray<string> | undefined
  /** Count each locked room type's rooms in service (block writes and inventory controls decide on them). */
  readonly countRooms?: boolean | undefined
  /** Blocks (pickups, or a block write), read under their locks at `now`. */
  readonly blocks?: ReadonlyArray<string> | undefined
  /** The live promo codes of these plans and their ancestors: redemption counts are read under them. */
  readonly promoCodesOf?: ReadonlyArray<string> | undefined
  /** The instant (from `Clock`) live holds are counted and blocks read at: needed with `guest` or `blocks`. */
  readonly now?: Date | undefined
}

/** A booking's row as locked, with its reservations' ids in room order. */
export interface LockedBooking {
  readonly id: string
  readonly guest_id: string
  readonly currency: string
  readonly reservationIds: ReadonlyArray<string>
}

export interface LockedRoomType {
  readonly id: string
  readonly name: string
  /** Rooms in service; counted only with `countRooms` (else 0). */
  readonly rooms: number
}

/** What the guest's locks found: the live holds the caps are decided on, and whether the guest exists. */
export interface HoldLocks {
  readonly live: Booking.LiveHolds
  readonly guestFound: boolean
}

export interface StayLocks<S extends StayLockSet = StayLockSet> {
  readonly booking: LockedBooking | undefined
  readonly reservationFound: boolean
  /** With a guest to lock, what its locks found. */
  readonly guest: S extends { readonly guest: object } ? HoldLocks : undefined
  /** The property's room types found, by id (an id naming none locks nothing). */
  readonly roomTypes: ReadonlyMap<string, LockedRoomType>
  readonly blocks: ReadonlyMap<string, BlockRead>
}

/** A malformed id matches no row instead of failing the statement (a text compared with a uuid column). */
const uuidOrNull = (id: string) => isUuid(id) ? id : null
const idOrder = (ids: ReadonlyArray<string>) => [...new Set(ids.filter(isUuid))].sort()

const lockBooking = (sql: SqlClient.SqlClient, propertyId: string, id: string) =>
  Effect.gen(function*() {
    if (!isUuid(id)) return undefined
    const [booking] = yield* sql<{ id: string; guest_id: string; currency: string }>`
      SELECT id, guest_id, currency FROM bookings WHERE property_id = ${propertyId} AND id = ${id} FOR NO KEY UPDATE`
    if (booking === undefined) return undefined
    const rooms = yield* sql<{ id: string; booking_position: number }>`
      SELECT id, booking_position FROM reservations WHERE booking_id = ${id} ORDER BY id FOR NO KEY UPDATE`
    const inRoomOrder = [...rooms].sort((a, b) => a.booking_position - b.booking_position)
    const locked: LockedBooking = { ...booking, reservationIds: inRoomOrder.map((row) => row.id) }
    return locked
  })

const lockReservation = (sql: SqlClient.SqlClient, propertyId: string, id: string) =>
  isUuid(id)
    ? Effect.map(
      sql<{ id: string }>`
        SELECT id FROM reservations WHERE property_id = ${propertyId} AND id = ${id} FOR NO KEY UPDATE`,
      (rows) => rows.length > 0
    )
    : Effect.succeed(false)

/**
 * The guest's lock and the key's cap in one statement (the cap never changes, so it is read unlocked; `OF g`:
 * only the guest row is locked); then the key's lock when it is capped, so only a capped key's holds queue on
 * it. A missing guest locks nothing: the hold's checks answer 404 `guest_not_found` in their order.
 */
const lockGuest = (sql: SqlClient.SqlClient, propertyId: string, guest: NonNullable<StayLockSet["guest"]>) =>
  Effect.gen(function*() {
    const [locked] = yield* sql<{ max_live_holds: number | null }>`
      SELECT (SELECT k.max_live_holds FROM api_keys k WHERE k.id = ${guest.apiKeyId}) AS max_live_holds
      FROM guests g WHERE g.property_id = ${propertyId} AND g.id = ${uuidOrNull(guest.guestId)}
      FOR NO KEY UPDATE OF g`
    const maxLiveHolds = locked !== undefined ? locked.max_live_holds : (yield* sql<{ max_live_holds: number | null }>`
      SELECT max_live_holds FROM api_keys WHERE id = ${guest.apiKeyId}`)[0]?.max_live_holds ?? null
    if (maxLiveHolds !== null) {
      yield* sql`SELECT id FROM api_keys WHERE id = ${guest.apiKeyId} FOR NO KEY UPDATE`
    }
    return { maxLiveHolds, guestFound: locked !== undefined }
  })

/**
 * The room types' locks and the guest's (and a capped key's) live holds in one statement: its snapshot is taken
 * when it starts, after the guest's and key's locks were granted (READ COMMITTED: a new snapshot per statement),
 * so it sees every hold committed by an earlier holder of them. Holds of these room types committed meanwhile are
 * no concern of the caps; availability is counted by the next statement, under these locks (taken in the sort's
 * order: the locking step runs above the sort). An uncapped key's holds are not counted: a busy channel's key may
 * have thousands live, and counting them under the lock would cost every hold of the room type.
 */
const lockRoomTypesCounting = (
  sql: SqlClient.SqlClient,
  propertyId: string,
  ids: ReadonlyArray<string>,
  guest: { readonly guestId: string; readonly apiKeyId: string; readonly maxLiveHolds: number | null },
  now: Date
) =>
  Effect.map(
    sql<{ room_types: ReadonlyArray<{ id: string; name: string }>; guest: number; api_key: number }>`
      WITH room_type AS (
        SELECT id, name FROM room_types
        WHERE property_id = ${propertyId} AND id = ANY(${ids}::uuid[])
        ORDER BY id
        FOR NO KEY UPDATE
      )
      SELECT (SELECT COALESCE(json_agg(json_build_object('id', id, 'name', name)), '[]'::json) FROM room_type) AS room_types,
             count(*) FILTER (WHERE r.guest_id = ${uuidOrNull(guest.guestId)})::int AS guest,
             count(*) FILTER (WHERE r.api_key_id = ${guest.maxLiveHolds === null ? null : guest.apiKeyId})::int AS api_key
      FROM reservations r
      WHERE (r.guest_id = ${uuidOrNull(guest.guestId)} OR r.api_key_id = ${guest.maxLiveHolds === null ? null : guest.apiKeyId})
        AND ${liveHold(sql, "r", now)}`,
    ([row]) => ({
      roomTypes: row.room_types.map((rt): LockedRoomType => ({ ...rt, rooms: 0 })),
      live: { guest: row.guest, apiKey: row.api_key, apiKeyMax: guest.maxLiveHolds }
    })
  )

const lockRoomTypes = (sql: SqlClient.SqlClient, propertyId: string, ids: ReadonlyArray<string>, countRooms: boolean) =>
  sql<LockedRoomType>`
    SELECT rt.id, rt.name,
           ${countRooms ? sql`(SELECT count(*) FROM rooms r WHERE r.room_type_id = rt.id AND NOT r.retired)::int` : sql.literal("0")} AS rooms
    FROM room_types rt
    WHERE rt.property_id = ${propertyId} AND rt.id = ANY(${ids}::uuid[])
    ORDER BY rt.id
    FOR NO KEY UPDATE OF rt`

const lockBlocks = (sql: SqlClient.SqlClient, propertyId: string, ids: ReadonlyArray<string>, now: Date) =>
  Effect.gen(function*() {
    const found = new Map<string, BlockRead>()
    for (const id of idOrder(ids)) {
      const read = yield* findBlock(sql, propertyId, id, now, true)
      if (read !== undefined) found.set(id, read)
    }
    return found as ReadonlyMap<string, BlockRead>
  })

const kindsOf = (set: StayLockSet): ReadonlyArray<LockKind> =>
  lockOrder.filter((kind) => {
    switch (kind) {
      case "booking":
        return set.booking !== undefined
      case "reservation":
        return set.reservation !== undefined
      case "guest":
        return set.guest !== undefined
      case "roomTypes":
        return (set.roomTypes?.length ?? 0) > 0
      case "blocks":
        return (set.blocks?.length ?? 0) > 0
      case "promoCodes":
        return (set.promoCodesOf?.length ?? 0) > 0
    }
  })

/**
 * Takes the locks of `set` in `lockOrder`, in the caller's transaction, and answers what they found. `after`
 * names the last kind the caller already holds: asking then for that kind or an earlier one is a defect.
 */
export const lockStay = <S extends StayLockSet>(
  sql: SqlClient.SqlClient,
  propertyId: string,
  set: S,
  after?: LockKind
): Effect.Effect<StayLocks<S>, SqlError> =>
  Effect.gen(function*() {
    const kinds = kindsOf(set)
    if (after !== undefined && kinds.some((kind) => lockOrder.indexOf(kind) <= lockOrder.indexOf(after))) {
      return yield* Effect.die(new Error(`lock order: ${kinds.join(", ")} asked for after ${after}`))
    }
    const { now } = set
    if (now === undefined && (kinds.includes("guest") || kinds.includes("blocks"))) {
      return yield* Effect.die(new Error("lockStay: a guest's or a block's lock needs `now`"))
    }
    const at = now ?? new Date()
    const booking = set.booking === undefined ? undefined : yield* lockBooking(sql, propertyId, set.booking)
    const reservationFound = set.reservation !== undefined && (yield* lockReservation(sql, propertyId, set.reservation))
    const roomTypeIds = idOrder(set.roomTypes ?? [])
    let roomTypes: ReadonlyArray<LockedRoomType> = []
    let held: HoldLocks | undefined
    if (set.guest !== undefined) {
      const guest = yield* lockGuest(sql, propertyId, set.guest)
      const counted = yield* lockRoomTypesCounting(sql, propertyId, roomTypeIds, { ...set.guest, ...guest }, at)
      roomTypes = counted.roomTypes
      held = { live: counted.live, guestFound: guest.guestFound }
    } else if (roomTypeIds.length > 0) {
      roomTypes = yield* lockRoomTypes(sql, propertyId, roomTypeIds, set.countRooms === true)
    }
    const blocks = yield* lockBlocks(sql, propertyId, set.blocks ?? [], at)
    const planIds = idOrder(set.promoCodesOf ?? [])
    if (isUuid(propertyId) && planIds.length > 0) yield* lockPromoCodeRowsOf(sql, propertyId, planIds)
    return {
      booking,
      reservationFound,
      guest: held as StayLocks<S>["guest"],
      roomTypes: new Map(roomTypes.map((rt) => [rt.id, rt])),
      blocks
    }
  })
