import * as SqlClient from "effect/sql/SqlClient"
import { Booking, Money } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Metric from "effect/Metric"
import { amountDue, folioLinesOf } from "../folios/FolioLines.js"
import type { EventOutbox } from "../events/EventOutbox.js"
import type { BookingConfirmed, BookingConfirmError } from "./bookings/requests.js"
import { lockBooking } from "./bookings/lock.js"
import { lockStay } from "./stayLocks.js"
import { Confirmations, type ConfirmActor, type ConfirmRequest } from "./Confirmations.js"
import { checkReference, confirmResult, readReservation } from "./confirmations/steps.js"
import { countNoAvailability, holdsConfirmed } from "./BookingMetrics.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// `POST /bookings/{id}/confirm`: every reservation of the booking confirmed in ONE transaction, or none. The
// checks of a hold's confirm, in its order, applied to each: the state (`Booking.bookingConfirmStep`: all live
// holds, or all confirmed for a repeat that records nothing), the payment assertions against the booking's
// total and currency (`Booking.confirmPayment`), the reference (claimed by no other payer: the booking is the
// unit paid), then for each reservation in room order the hold confirm's own re-check of availability and
// writes (`Confirmations.confirmReservation`), with its folio's own amount due as its share of the payment.
//
// Locks (`lockStay`, ./stayLocks.ts): the booking, its reservations, then their room types; the hold confirm's
// own room type lock is then already held.

export class BookingConfirmations extends Context.Service<BookingConfirmations>()(
  "@hotel/persistence/booking/BookingConfirmations",
  {
    make: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const confirmations = yield* Confirmations

      /** Each reservation as its confirm reads it, with its folio's lines and amount due. */
      const readRooms = (propertyId: string, ids: ReadonlyArray<string>) =>
        Effect.forEach(ids, (id) =>
          Effect.gen(function*() {
            const [row] = yield* readReservation(sql, propertyId, id)
            const lines = yield* folioLinesOf(sql, row.folio_id)
            return { row, due: amountDue(lines, row.currency, row.folio_status === "voided") }
          }))

      const confirm = (
        actor: ConfirmActor,
        bookingId: string,
        request: ConfirmRequest
      ): Effect.Effect<BookingConfirmed, BookingConfirmError, EventOutbox> =>
        Effect.gen(function*() {
          const now = new Date(yield* Clock.currentTimeMillis)
          const booking = yield* lockBooking(sql, actor.propertyId, bookingId)
          const rooms = yield* readRooms(actor.propertyId, booking.reservationIds)
          yield* lockStay(sql, actor.propertyId, { roomTypes: rooms.map(({ row }) => row.room_type_id) }, "booking")
          const answer = (alreadyConfirmed: boolean) =>
            Effect.map(Effect.forEach(rooms, ({ row }) => confirmResult(sql, row, alreadyConfirmed)), (reservations): BookingConfirmed => ({
              bookingId: booking.id,
              currency: booking.currency,
              total: Booking.bookingTotal(rooms.map(({ row }) => Money.fromDb(row.total))),
              alreadyConfirmed,
              reservations
            }))

          const step = Booking.bookingConfirmStep(rooms.map(({ row }) => ({
            status: row.status,
            holdExpiresAt: row.hold_expires_at,
            cancellationReason: row.cancellation_reason
          })), now)
          if (Result.isFailure(step)) return yield* step.failure
          if (step.success === "already_confirmed") return yield* answer(true)

          const total = Booking.bookingTotal(rooms.map(({ due }) => due))
          const payment = Booking.confirmPayment({ amount: total, currency: booking.currency }, request, "booking")
          if (Result.isFailure(payment)) return yield* payment.failure
          yield* checkReference(sql, actor.propertyId, { _tag: "Booking", bookingId: booking.id }, request.paymentReference)
          for (const [i, { due, row }] of rooms.entries()) {
            const share = { reference: request.paymentReference, amount: due, booking: { id: booking.id, claims: i === 0 } }
            yield* confirmations.confirmReservation(actor, row, share, now).pipe(
              Effect.mapError((error) => Booking.inRoom(i, error))
            )
          }
          return yield* answer(false)
        }).pipe(
          inTransaction(sql),
          Effect.catchTag("SqlError", Effect.die),
          Effect.tap((done) => done.alreadyConfirmed ? Effect.void : Metric.update(holdsConfirmed, done.reservations.length)),
          countNoAvailability,
          withSpan("BookingConfirmations.confirm")
        )

      return { confirm } as const
    })
  }
) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide(Confirmations.layer))
}
