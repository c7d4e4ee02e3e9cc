import * as SqlClient from "effect/sql/SqlClient"
import { Booking, isUuid, ReservationNotFound } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { amountDue, folioLinesOf } from "../folios/FolioLines.js"
import { Inventory } from "../inventory/Inventory.js"
import type { ConfirmActor, ConfirmError, ConfirmRequest, ConfirmResult } from "./confirmations/requests.js"
import {
  checkAvailability,
  checkReference,
  confirmResult,
  type LockedReservation,
  type PaymentShare,
  readReservation,
  writeConfirm
} from "./confirmations/steps.js"
import { lockReservationThen } from "./ReservationLock.js"
import type { EventOutbox } from "../events/EventOutbox.js"
import * as Metric from "effect/Metric"
import { countNoAvailability, holdsConfirmed } from "./BookingMetrics.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

export { amountDue } from "../folios/FolioLines.js"

// `POST /holds/{id}/confirm`: one transaction that first locks the reservation row,
// so concurrent confirms of one hold run one at a time and all but the first find it confirmed
// (`already_confirmed`, nothing recorded twice, a booking's room included). A reservation of a booking is paid
// only with its booking (409 `not_confirmable`). Then, for a live hold: the payment assertions (currency, amount:
// `Booking.confirmPayment`, a pure decision on the loaded folio),
// a reference already recorded for another payer (409 `payment_reference_reused`, also enforced by the
// payments' unique index), the availability re-check without the hold itself (under the room type's
// lock, the one holds take, so an expiring hold cannot be re-sold and confirmed at once), and the writes:
// reservation and accommodation confirmed, the payment line and row, the loyalty earn (USD) or skipped earn
// (other currencies; `Booking.earnOnConfirm` decides), and the audit row of the assertion
// (./confirmations/steps.ts). A booking's confirm (BookingConfirmations.ts) runs `confirmReservation`, the
// re-check and the writes, for each of its reservations.
//
// Locks (`lockStay`, ./stayLocks.ts): the reservation row, then its room type's; cancels take only the reservation
// row; the sweeper skips locked rows.

export type { ConfirmActor, ConfirmError, ConfirmRequest, ConfirmResult } from "./confirmations/requests.js"
export type { LockedReservation, PaymentShare } from "./confirmations/steps.js"

export class Confirmations extends Context.Service<Confirmations>()("@hotel/persistence/booking/Confirmations", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inventory = yield* Inventory

    /**
     * The availability re-check and the writes of one locked reservation whose state, payment and reference
     * were decided: what every confirmed reservation goes through, alone or as a room of a booking.
     */
    const confirmReservation = (actor: ConfirmActor, row: LockedReservation, share: PaymentShare, now: Date) =>
      Effect.andThen(
        checkAvailability(sql, inventory, actor.propertyId, row, now),
        writeConfirm(sql, actor, row, share, now)
      )

    const confirm = (
      actor: ConfirmActor,
      reservationId: string,
      request: ConfirmRequest
    ): Effect.Effect<ConfirmResult, ConfirmError, EventOutbox> =>
      Effect.gen(function*() {
        const notFound = new ReservationNotFound({ message: `No reservation ${reservationId}` })
        if (!isUuid(reservationId)) return yield* notFound
        const now = new Date(yield* Clock.currentTimeMillis)
        // The lock in its own statement, then the read (ReservationLock.ts says why).
        const [row] = yield* lockReservationThen(sql, actor.propertyId, reservationId, readReservation(sql, actor.propertyId, reservationId))
        if (row === undefined) return yield* notFound

        const step = Booking.confirmStep({
          status: row.status,
          holdExpiresAt: row.hold_expires_at,
          cancellationReason: row.cancellation_reason
        }, now)
        // A confirmed reservation answers its result before any other check, a booking's room too (it records
        // nothing); only paying a booking's room alone is refused.
        if (Result.isSuccess(step) && step.success === "already_confirmed") return yield* confirmResult(sql, row, true)
        yield* Effect.fromResult(Booking.checkConfirmableAlone(row.booking_id))
        if (Result.isFailure(step)) return yield* step.failure

        const lines = yield* folioLinesOf(sql, row.folio_id)
        const due = amountDue(lines, row.currency, row.folio_status === "voided")
        const payment = Booking.confirmPayment({ amount: due, currency: row.currency }, request)
        if (Result.isFailure(payment)) return yield* payment.failure
        yield* checkReference(sql, actor.propertyId, { _tag: "Reservation", reservationId: row.id }, request.paymentReference)
        yield* confirmReservation(actor, row, { reference: request.paymentReference, amount: payment.success, booking: null }, now)
        return yield* confirmResult(sql, row, false)
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        Effect.tap((confirmed) => confirmed.alreadyConfirmed ? Effect.void : Metric.update(holdsConfirmed, 1)),
        countNoAvailability,
        withSpan("Confirmations.confirm")
      )

    return { confirm, confirmReservation } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide(Inventory.layer))
}
