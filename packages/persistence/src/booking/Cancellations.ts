import * as SqlClient from "effect/sql/SqlClient"
import { Booking, type NotCancellable, type PreconditionFailed, type ReservationNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { cancellableFacts, type CancellationFacts, paidOf, settlementAt } from "./CancellationQuote.js"
import { appendLine, rateToBase } from "../folios/FolioLines.js"
import { addLedgerEntry } from "../guests/LoyaltyLedger.js"
import { requireCurrentTag } from "../events/EntityTag.js"
import { EventOutbox } from "../events/EventOutbox.js"
import { type StayChange, stayChangeEvents } from "./StayEvents.js"
import type { EventRenderer } from "../events/EventRenderer.js"
import { Subject } from "../events/EventSubject.js"
import * as Metric from "effect/Metric"
import { reservationsCancelled } from "./BookingMetrics.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// `POST /reservations/{id}/cancel`: one transaction that locks the reservation row
// and, in this order, writes the refund obligation on the folio (a `refund` line, and a `cancellation_fee`
// line for what the property keeps of what was paid towards the stay, `paidOf`: a refund or a change fee an
// earlier change wrote is not shared out again, so the cancelled folio balances), voids the folio
// (lines kept for audit), reverses the loyalty points the stay earned, then marks the reservation cancelled and
// its accommodation cancelled, which releases the inventory (`cancelReservation`, which a booking's cancel runs for
// each of its rooms: BookingCancellations.ts).
//
// The policy is the one frozen on the reservation at hold time (the terms the quote showed); a reservation
// without one falls back to its plan's policy, then the property's. Days before arrival are counted in the
// property's local calendar at `now` from `Clock`. The facts and figures are `CancellationQuote`'s
// (`cancellableFacts` read under the row lock, `settlementAt`), so a quote and a cancel at the same instant agree.

export interface CancelResult {
  readonly reservationId: string
  readonly currency: string
  readonly refundDueMinor: bigint
  readonly refundPercent: number
}

export class Cancellations extends Context.Service<Cancellations>()("@hotel/persistence/booking/Cancellations", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const appendCancellationLines = (
      propertyId: string,
      row: CancellationFacts,
      lines: ReadonlyArray<Booking.CancellationLine>,
      now: Date
    ) =>
      Effect.gen(function*() {
        if (lines.length === 0) return
        const exchangeRate = yield* rateToBase(sql, propertyId, row.currency, row.base_currency)
        for (const line of lines) {
          yield* appendLine(sql, row.folio_id, { ...line, currency: row.currency, exchangeRate }, now)
        }
      })

    const reverseEarn = (propertyId: string, row: CancellationFacts, now: Date) =>
      Effect.gen(function*() {
        const [{ earned }] = yield* sql<{ earned: number }>`
          SELECT COALESCE(sum(points), 0)::int AS earned FROM loyalty_ledger
          WHERE reservation_id = ${row.id} AND kind IN ('earn', 'adjustment', 'reversal')`
        const points = Booking.pointsToReverse(earned)
        if (points === 0) return
        yield* addLedgerEntry(sql, { propertyId, guestId: row.guest_id, reservationId: row.id, kind: "reversal", points }, now)
      })

    /**
     * The writes of a cancel of one reservation whose row is locked and that a cancel at `now` goes ahead with
     * (`cancellableFacts`): what every cancelled reservation goes through, alone or as a room of a booking. The
     * events are the caller's (./StayEvents.ts).
     */
    const cancelReservation = (propertyId: string, row: CancellationFacts, now: Date, reason: string | null) =>
      Effect.gen(function*() {
        const { settlement } = settlementAt(row, now)
        // 1. The refund obligation, on the folio (the same figures a cancellation quote at `now` shows).
        yield* appendCancellationLines(propertyId, row, Booking.cancellationLines(paidOf(row), settlement), now)
        // 2. The folio is voided; its lines stay for audit.
        yield* sql`UPDATE folios SET status = 'voided' WHERE id = ${row.folio_id}`
        // 3. The loyalty points the stay earned are taken back.
        yield* reverseEarn(propertyId, row, now)
        // 4. Cancelled; the accommodation too, which releases the inventory.
        yield* sql`
          UPDATE reservations
          SET status = 'cancelled', cancelled_at = ${now},
              cancellation_reason = ${reason ?? Booking.defaultCancellationReason}, updated_at = ${now}
          WHERE id = ${row.id}`
        yield* sql`UPDATE accommodations SET status = 'cancelled' WHERE reservation_id = ${row.id}`
        const result: CancelResult = {
          reservationId: row.id,
          currency: row.currency,
          refundDueMinor: settlement.refundDueMinor,
          refundPercent: settlement.refundPercent
        }
        const change: StayChange = {
          reservation: { id: row.id, refundDueMinor: settlement.refundDueMinor },
          nights: { roomTypeId: row.room_type_id, checkIn: row.check_in_date, checkOut: row.check_out_date }
        }
        return { result, change }
      })

    const cancel = (
      propertyId: string,
      reservationId: string,
      reason: string | null,
      ifMatch?: string
    ): Effect.Effect<
      CancelResult,
      ReservationNotFound | NotCancellable | PreconditionFailed,
      EventOutbox | EventRenderer
    > =>
      Effect.gen(function*() {
        const { now, row } = yield* cancellableFacts(sql, propertyId, reservationId, "lock")
        // `If-Match` names the tag of `GET /reservations/{id}`, rendered here under the row lock.
        yield* requireCurrentTag(propertyId, Subject.reservation(row.id), ifMatch)
        const { change, result } = yield* cancelReservation(propertyId, row, now, reason)
        yield* Effect.flatMap(EventOutbox, (outbox) =>
          outbox.append(propertyId, stayChangeEvents("reservation.cancelled", [change])))
        return result
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        Effect.tap(() => Metric.update(reservationsCancelled, 1)),
        withSpan("Cancellations.cancel")
      )

    return { cancel, cancelReservation } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
