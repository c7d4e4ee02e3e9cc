import * as SqlClient from "@effect/sql/SqlClient"
import { Booking, Money, type NotCancellable, type ReservationNotFound } from "@hotel/domain"
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import { cancellableFacts, settlementAt } from "./CancellationQuote.js"
import { appendLine, rateToBase } from "./FolioLines.js"
import { addLedgerEntry } from "./LoyaltyLedger.js"
import { appendStayChange, type EventOutbox } from "./events/EventOutbox.js"

// `POST /reservations/{id}/cancel` (interface 4.9, decisions 5): one transaction that locks the reservation row
// and, in this order, writes the refund obligation on the folio (a `refund` line, and a `cancellation_fee`
// line for what the property keeps of the paid amount, so the cancelled folio balances), voids the folio
// (lines kept for audit), reverses the loyalty points the stay earned, then marks the reservation cancelled and
// its accommodation cancelled, which releases the inventory.
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

export class Cancellations extends Effect.Service<Cancellations>()("@hotel/persistence/Cancellations", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const cancel = (
      propertyId: string,
      reservationId: string,
      reason: string | null
    ): Effect.Effect<CancelResult, ReservationNotFound | NotCancellable, EventOutbox> =>
      Effect.gen(function*() {
        const { now, row } = yield* cancellableFacts(sql, propertyId, reservationId, "lock")

        // 1. The refund obligation, on the folio (the same figures a cancellation quote at `now` shows).
        const paid = Money.fromDb(row.paid)
        const { settlement } = settlementAt(row, now)
        if (BigDecimal.isPositive(paid)) {
          const exchangeRate = yield* rateToBase(sql, propertyId, row.currency, row.base_currency)
          if (BigDecimal.isPositive(settlement.refund)) {
            yield* appendLine(sql, row.folio_id, {
              kind: "refund",
              description: `Refund due on cancellation (${settlement.refundPercent}%)`,
              amount: settlement.refund,
              currency: row.currency,
              exchangeRate
            }, now)
          }
          if (BigDecimal.isPositive(settlement.fee)) {
            yield* appendLine(sql, row.folio_id, {
              kind: "cancellation_fee",
              description: `Cancellation fee (${100 - settlement.refundPercent}% of the amount paid)`,
              amount: settlement.fee,
              currency: row.currency,
              exchangeRate
            }, now)
          }
        }
        // 2. The folio is voided; its lines stay for audit.
        yield* sql`UPDATE folios SET status = 'voided' WHERE id = ${row.folio_id}`
        // 3. The loyalty points the stay earned are taken back.
        const [{ earned }] = yield* sql<{ earned: number }>`
          SELECT COALESCE(sum(points), 0)::int AS earned FROM loyalty_ledger
          WHERE reservation_id = ${row.id} AND kind IN ('earn', 'reversal')`
        if (earned > 0) {
          yield* addLedgerEntry(sql, {
            propertyId,
            guestId: row.guest_id,
            reservationId: row.id,
            kind: "reversal",
            points: -earned
          }, now)
        }
        // 4. Cancelled; the accommodation too, which releases the inventory.
        yield* sql`
          UPDATE reservations
          SET status = 'cancelled', cancelled_at = ${now},
              cancellation_reason = ${reason ?? Booking.defaultCancellationReason}, updated_at = ${now}
          WHERE id = ${row.id}`
        yield* sql`UPDATE accommodations SET status = 'cancelled' WHERE reservation_id = ${row.id}`
        yield* appendStayChange(propertyId, "reservation.cancelled", { id: row.id, refundDueMinor: settlement.refundDueMinor }, { roomTypeId: row.room_type_id, checkIn: row.check_in_date, checkOut: row.check_out_date })
        return {
          reservationId: row.id,
          currency: row.currency,
          refundDueMinor: settlement.refundDueMinor,
          refundPercent: settlement.refundPercent
        }
      }).pipe(
        sql.withTransaction,
        Effect.catchTag("SqlError", Effect.die),
        Effect.withSpan("Cancellations.cancel")
      )

    return { cancel } as const
  })
}) {}
