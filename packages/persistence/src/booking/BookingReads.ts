import * as SqlClient from "effect/sql/SqlClient"
import { Booking, BookingNotFound, isUuid, Money } from "@hotel/domain"
import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { type ReservationRecord, ReservationReads } from "./ReservationReads.js"
import { withSpan } from "../database/Span.js"

// `GET /bookings/{id}`: the booking with each of its reservations exactly as `GET /reservations/{id}` reads it,
// in the order of the booking's rooms, and the stay and total those rooms say now (`Booking.bookingStay`): a room
// can be changed or cancelled on its own, so the dates the booking was created with are not read back.

export interface BookingRow {
  readonly id: string
  readonly guest_id: string
  readonly currency: string
  readonly created_at: Date
}

export interface BookingRecord {
  readonly booking: BookingRow
  readonly stay: Booking.BookingStay
  readonly reservations: ReadonlyArray<ReservationRecord>
}

export class BookingReads extends Context.Service<BookingReads>()("@hotel/persistence/booking/BookingReads", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const reservations = yield* ReservationReads

    const get = (propertyId: string, id: string): Effect.Effect<BookingRecord, BookingNotFound> =>
      Effect.gen(function*() {
        const notFound = new BookingNotFound({ message: `No booking ${id}` })
        if (!isUuid(id)) return yield* notFound
        const [booking] = yield* sql<BookingRow>`
          SELECT id, guest_id, currency, created_at
          FROM bookings WHERE property_id = ${propertyId} AND id = ${id}`.pipe(Effect.orDie)
        if (booking === undefined) return yield* notFound
        const rooms = yield* sql<{ id: string }>`
          SELECT id FROM reservations WHERE booking_id = ${id} ORDER BY booking_position`.pipe(Effect.orDie)
        const records = yield* Effect.forEach(rooms, (room) => reservations.get(propertyId, room.id).pipe(Effect.orDie))
        // A booking is written with its 1 to 10 rooms in one transaction, and a reservation is never deleted.
        if (!Arr.isReadonlyArrayNonEmpty(records)) return yield* Effect.die(new Error(`Booking ${id} has no rooms`))
        const stay = Booking.bookingStay(Arr.map(records, ({ reservation: r }) => ({
          status: r.status,
          checkIn: r.check_in_date,
          checkOut: r.check_out_date,
          total: Money.fromDb(r.total)
        })))
        return { booking, stay, reservations: records }
      }).pipe(withSpan("BookingReads.get"))

    return { get } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide(ReservationReads.layer))
}
