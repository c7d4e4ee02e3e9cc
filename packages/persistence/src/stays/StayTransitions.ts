import type { SqlError } from "effect/sql/SqlError"
import * as SqlClient from "effect/sql/SqlClient"
import {
  type InvalidParameters,
  type InvalidStatusTransition,
  isUuid,
  type NoAvailability,
  ReservationNotFound,
  type RoomNotFound,
  RoomUnavailable,
  Stay,
  Visibility
} from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { lockReservationThen } from "../booking/ReservationLock.js"
import { lockStay } from "../booking/stayLocks.js"
import { appendEvent, appendStayChange, type EventOutbox } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import { isExclusionViolation } from "../database/ConstraintViolation.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// Check-in, check-out and no-show. One transaction each,
// which first locks the reservation row (the lock confirm, cancel and charges take). Check-in then locks the
// reservation's room type row (`FOR NO KEY UPDATE`, the lock holds and confirms take on it) before it looks for a
// free room, so two check-ins of one room type pick their rooms one after the other and never the same room for
// overlapping nights; the `accommodations_room_not_doubled` exclusion constraint enforces the same in the
// database. Both locks are `lockStay`'s (../booking/stayLocks.ts), in its order.
//
// A room is free for a stay when it is of the reservation's room type, not retired, and no other confirmed or
// checked-in accommodation holds it for a night of the stay. Without `room_id` the free room with the lowest
// number is assigned; none free is 409 `no_availability`. Which room is the pure decision `Stay.assignRoom`.
//
// Order of checks: the reservation (404) → the room when one is named (404 `room_not_found`; 400
// `invalid_parameters` on `room_id` for a room of another type) → the transition (409
// `invalid_status_transition`) → the room's availability (409 `room_unavailable`: retired, or taken for a night of
// the stay).

export interface StayResult {
  readonly reservationId: string
  readonly status: Stay.StayStatus
  readonly roomId: string | null
}

export type StayError =
  | ReservationNotFound
  | RoomNotFound
  | InvalidParameters
  | InvalidStatusTransition
  | RoomUnavailable
  | NoAvailability

interface LockedReservation {
  readonly id: string
  readonly status: string
  readonly hold_expires_at: Date | null
  readonly room_type_id: string
  readonly room_type_name: string
  readonly check_in_date: string
  readonly check_out_date: string
  readonly timezone: string
  readonly room_id: string | null
}

interface RoomRow {
  readonly id: string
  readonly number: string
  readonly room_type_id: string
  readonly retired: boolean
}

const isRoomDoubled = (error: SqlError): boolean => isExclusionViolation(error, "accommodations_room_not_doubled")

export class StayTransitions extends Context.Service<StayTransitions>()("@hotel/persistence/stays/StayTransitions", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // The lock in its own statement, then the read (ReservationLock.ts says why).
    const lockReservation = (propertyId: string, id: string) =>
      lockReservationThen(sql, propertyId, id, readReservation(propertyId, id))

    const readReservation = (propertyId: string, id: string) =>
      sql<LockedReservation>`
        SELECT r.id, r.status, r.hold_expires_at, r.room_type_id, rt.name AS room_type_name, r.check_in_date,
               r.check_out_date, p.timezone,
               (SELECT a.room_id FROM accommodations a WHERE a.reservation_id = r.id
                 ORDER BY a.check_in_date, a.id LIMIT 1) AS room_id
        FROM reservations r
        JOIN room_types rt ON rt.id = r.room_type_id
        JOIN properties p ON p.id = r.property_id
        WHERE r.property_id = ${propertyId} AND r.id = ${id}`

    /** The reservation, locked, and the step `action` takes from its state today, at the property. */
    const begin = (propertyId: string, reservationId: string) =>
      Effect.gen(function*() {
        const notFound = new ReservationNotFound({ message: `No reservation ${reservationId}` })
        if (!isUuid(reservationId)) return yield* notFound
        const now = new Date(yield* Clock.currentTimeMillis)
        const [row] = yield* lockReservation(propertyId, reservationId)
        if (row === undefined) return yield* notFound
        const today = Visibility.localToday(now, row.timezone)
        const step = (action: Stay.StayAction) =>
          Stay.stayStep(action, {
            status: row.status,
            holdExpiresAt: row.hold_expires_at,
            checkIn: row.check_in_date,
            checkOut: row.check_out_date
          }, now, today)
        return { row, now, step }
      })

    /**
     * Rooms of the type in service and free for every night of the stay, lowest number first; never a room out of
     * order on the arrival night.
     */
    const freeRooms = (propertyId: string, row: LockedReservation) =>
      sql<{ id: string }>`
        SELECT rm.id FROM rooms rm
        WHERE rm.property_id = ${propertyId} AND rm.room_type_id = ${row.room_type_id} AND NOT rm.retired
          AND NOT EXISTS (
            SELECT 1 FROM accommodations a
            WHERE a.room_id = rm.id AND a.reservation_id <> ${row.id}
              AND a.status IN ('confirmed', 'checked_in')
              AND a.check_in_date < ${row.check_out_date}::date AND a.check_out_date > ${row.check_in_date}::date)
          AND NOT EXISTS (
            SELECT 1 FROM out_of_order o
            WHERE o.room_id = rm.id AND o.start_date <= ${row.check_in_date}::date AND ${row.check_in_date}::date < o.end_date)
        ORDER BY rm.number, rm.id`

    const findRoom = (propertyId: string, roomId: string) =>
      sql<RoomRow>`
        SELECT id, number, room_type_id, retired FROM rooms WHERE property_id = ${propertyId} AND id = ${roomId}`.pipe(
        Effect.map((rows): Stay.RoomFacts | undefined =>
          rows[0] === undefined
            ? undefined
            : { id: rows[0].id, number: rows[0].number, roomTypeId: rows[0].room_type_id, retired: rows[0].retired }
        )
      )

    const checkIn = (
      propertyId: string,
      reservationId: string,
      roomId: string | null
    ): Effect.Effect<StayResult, StayError, EventOutbox> =>
      Effect.gen(function*() {
        const { now, row, step } = yield* begin(propertyId, reservationId)
        const wanted = roomId === null ? undefined : yield* findRoom(propertyId, roomId)
        const reservation: Stay.CheckInFacts = {
          roomTypeId: row.room_type_id,
          roomTypeName: row.room_type_name,
          checkIn: row.check_in_date,
          checkOut: row.check_out_date
        }
        const named = Stay.checkNamedRoom(roomId, wanted, reservation)
        if (Result.isFailure(named)) return yield* named.failure
        const target = step("check_in")
        if (Result.isFailure(target)) return yield* target.failure

        yield* lockStay(sql, propertyId, { roomTypes: [row.room_type_id] }, "reservation")
        const free = (yield* freeRooms(propertyId, row)).map((room) => room.id)
        const room = Stay.assignRoom(wanted, free, reservation)
        if (Result.isFailure(room)) return yield* room.failure
        const assigned = room.success

        yield* sql`
          UPDATE accommodations SET room_id = ${assigned}, status = 'checked_in'
          WHERE reservation_id = ${row.id}`.pipe(
          Effect.catchTag("SqlError", (error): Effect.Effect<never, RoomUnavailable | SqlError> =>
            isRoomDoubled(error)
              ? Effect.fail(new RoomUnavailable({ message: "The room was taken for a night of this stay" }))
              : Effect.fail(error))
        )
        yield* sql`
          UPDATE reservations SET status = 'checked_in', checked_in_at = ${now}, updated_at = ${now}
          WHERE id = ${row.id}`
        yield* appendEvent(propertyId, "reservation.checked_in", Subject.reservation(row.id))
        return { reservationId: row.id, status: target.success, roomId: assigned }
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        withSpan("StayTransitions.checkIn")
      )

    /** Check-out or no-show: the reservation and its accommodation take the new status. */
    const simple = (action: "check_out" | "no_show") =>
    (propertyId: string, reservationId: string): Effect.Effect<StayResult, ReservationNotFound | InvalidStatusTransition, EventOutbox> =>
      Effect.gen(function*() {
        const { now, row, step } = yield* begin(propertyId, reservationId)
        const target = step(action)
        if (Result.isFailure(target)) return yield* target.failure
        const status = target.success
        yield* sql`UPDATE accommodations SET status = ${status} WHERE reservation_id = ${row.id}`
        yield* (action === "check_out"
          ? sql`
              UPDATE reservations SET status = ${status}, checked_out_at = ${now}, updated_at = ${now}
              WHERE id = ${row.id}`
          : sql`
              UPDATE reservations SET status = ${status}, no_show_at = ${now}, updated_at = ${now}
              WHERE id = ${row.id}`)
        // A checked-out or no-show stay takes no night any more (an early check-out frees the nights left):
        // both publish the nights they freed.
        yield* appendStayChange(
          propertyId,
          action === "check_out" ? "reservation.checked_out" : "reservation.no_show",
          row,
          { roomTypeId: row.room_type_id, checkIn: row.check_in_date, checkOut: row.check_out_date }
        )
        return { reservationId: row.id, status, roomId: row.room_id }
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        withSpan(`StayTransitions.${action}`)
      )

    return { checkIn, checkOut: simple("check_out"), noShow: simple("no_show") } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
