// The locks of a booking's confirm and cancel: the booking's row, then its reservations' rows in id order, then
// (a confirm) their room types in id order. Each in a statement of its own, before anything is read
// (ReservationLock.ts says why). A confirm and a cancel of one booking queue on the booking's row; a single
// cancel, change or transition of one of its reservations queues on that reservation's row, taken by both
// sides before any room type's lock, so a booking's confirm never sees half of a cancel, and nothing waits in
// a cycle: holds and bookings never wait on a reservation row, and every writer that locks several room types
// takes them in id order after its reservation rows.
import type * as SqlClient from "@effect/sql/SqlClient"
import { BookingNotFound, isUuid } from "@hotel/domain"
import * as Effect from "effect/Effect"

export interface LockedBooking {
  readonly id: string
  readonly guest_id: string
  readonly currency: string
  /** The reservations' ids in room order. */
  readonly reservationIds: ReadonlyArray<string>
}

/** Locks the property's booking `id` and its reservations' rows; 404 `booking_not_found` when there is none. */
export const lockBooking = (sql: SqlClient.SqlClient, propertyId: string, id: string) =>
  Effect.gen(function*() {
    const notFound = new BookingNotFound({ message: `No booking ${id}` })
    if (!isUuid(id)) return yield* notFound
    const [booking] = yield* sql<{ id: string; guest_id: string; currency: string }>`
      SELECT id, guest_id, currency FROM bookings WHERE property_id = ${propertyId} AND id = ${id} FOR NO KEY UPDATE`
    if (booking === undefined) return yield* notFound
    const rooms = yield* sql<{ id: string; booking_position: number }>`
      SELECT id, booking_position FROM reservations WHERE booking_id = ${id} ORDER BY id FOR NO KEY UPDATE`
    const inRoomOrder = [...rooms].sort((a, b) => a.booking_position - b.booking_position)
    const locked: LockedBooking = { ...booking, reservationIds: inRoomOrder.map((row) => row.id) }
    return locked
  })

/** The room types' locks (the ones holds take), in id order. */
export const lockRoomTypes = (sql: SqlClient.SqlClient, roomTypeIds: ReadonlyArray<string>) =>
  sql`SELECT id FROM room_types WHERE id = ANY(${[...new Set(roomTypeIds)].sort()}::uuid[]) ORDER BY id FOR NO KEY UPDATE`
