import * as SqlClient from "effect/sql/SqlClient"
import { Booking, NotCancellable } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Metric from "effect/Metric"
import { EventOutbox } from "../events/EventOutbox.js"
import type { BookingCancelError, BookingCancelled } from "./bookings/requests.js"
import { lockBooking } from "./bookings/lock.js"
import { cancellationFacts } from "./CancellationQuote.js"
import { Cancellations, type CancelResult } from "./Cancellations.js"
import { reservationsCancelled } from "./BookingMetrics.js"
import { stayChangeEvents, type StayChange } from "./StayEvents.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// `POST /bookings/{id}/cancel`: in ONE transaction, every reservation of the booking that a cancel of its own
// would go ahead with (`Booking.cancelStep`: a live hold or a confirmed stay) is cancelled by the cancel's own
// writes (`Cancellations.cancelReservation`: the refund obligation under its frozen policy, the voided folio,
// the loyalty reversal, the released inventory); the others are left as they are. None that can be: 409
// `not_cancellable`. Events: each cancelled reservation's `reservation.cancelled`, then one
// `availability.changed` per room type freed.
//
// Lock order: booking → its reservations in id order (./bookings/lock.ts); a cancel takes no other lock.

export class BookingCancellations extends Context.Service<BookingCancellations>()(
  "@hotel/persistence/booking/BookingCancellations",
  {
    make: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const cancellations = yield* Cancellations

      const cancel = (
        propertyId: string,
        bookingId: string,
        reason: string | null
      ): Effect.Effect<BookingCancelled, BookingCancelError, EventOutbox> =>
        Effect.gen(function*() {
          const now = new Date(yield* Clock.currentTimeMillis)
          const booking = yield* lockBooking(sql, propertyId, bookingId)
          const rooms = yield* Effect.forEach(booking.reservationIds, (id) =>
            Effect.map(cancellationFacts(sql, propertyId, id, "read"), (rows) => rows[0]))
          const cancellable = rooms.filter((row) =>
            Result.isSuccess(Booking.cancelStep({ status: row.status, holdExpiresAt: row.hold_expires_at }, now)))
          if (cancellable.length === 0) {
            return yield* new NotCancellable({ message: "No reservation of the booking can still be cancelled" })
          }
          const done = new Map<string, { result: CancelResult; change: StayChange }>()
          for (const row of cancellable) done.set(row.id, yield* cancellations.cancelReservation(propertyId, row, now, reason))
          yield* Effect.flatMap(EventOutbox, (outbox) =>
            outbox.append(propertyId, stayChangeEvents("reservation.cancelled", [...done.values()].map((d) => d.change))))
          const cancelled: BookingCancelled = {
            bookingId: booking.id,
            reservations: rooms.map((row) => {
              const cancelledNow = done.get(row.id)
              return {
                reservationId: row.id,
                status: cancelledNow !== undefined ? "cancelled" : Booking.effectiveStatus({ status: row.status, holdExpiresAt: row.hold_expires_at }, now),
                cancelled: cancelledNow?.result ?? null
              }
            })
          }
          return cancelled
        }).pipe(
          inTransaction(sql),
          Effect.catchTag("SqlError", Effect.die),
          Effect.tap((done) => Metric.update(reservationsCancelled, done.reservations.filter((r) => r.cancelled !== null).length)),
          withSpan("BookingCancellations.cancel")
        )

      return { cancel } as const
    })
  }
) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide(Cancellations.layer))
}
