import * as SqlClient from "@effect/sql/SqlClient"
import { Booking, isUuid, Money, type NotCancellable, ReservationNotFound } from "@hotel/domain"
import * as BigDecimal from "effect/BigDecimal"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { cancellationFacts, settlementAt } from "./CancellationQuote.js"

// `POST /reservations/{id}/cancel` (interface 4.9, decisions 5): one transaction that locks the reservation row
// and, in this order, writes the refund obligation on the folio (a `refund` line, and a `cancellation_fee`
// line for what the property keeps of the paid amount, so the cancelled folio balances), voids the folio
// (lines kept for audit), reverses the loyalty points the stay earned, then marks the reservation cancelled and
// its accommodation cancelled, which releases the inventory.
//
// The policy is the one frozen on the reservation at hold time (the terms the quote showed); a reservation
// without one falls back to its plan's policy, then the property's. Days before arrival are counted in the
// property's local calendar at `now` from `Clock`. The facts and figures are `CancellationQuote`'s
// (`cancellationFacts` read under the row lock, `settlementAt`), so a quote and a cancel at the same instant agree.

export interface CancelResult {
  readonly reservationId: string
  readonly currency: string
  readonly refundDueMinor: bigint
  readonly refundPercent: number
}

export class Cancellations extends Effect.Service<Cancellations>()("@hotel/persistence/Cancellations", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const rateNow = (propertyId: string, currency: string, baseCurrency: string) =>
      currency === baseCurrency
        ? Effect.succeed<string | null>("1")
        : sql<{ rate_to_base: string }>`
            SELECT rate_to_base::text AS rate_to_base FROM property_currencies
            WHERE property_id = ${propertyId} AND currency = ${currency}`.pipe(
            Effect.map((rows) => rows[0]?.rate_to_base ?? null)
          )

    const addLine = (
      folioId: string,
      line: { kind: string; description: string; amount: Money.Amount; currency: string; rate: string | null },
      now: Date
    ) =>
      sql`
        INSERT INTO folio_lines (folio_id, position, kind, description, amount, currency, exchange_rate,
                                 revenue_category, created_at)
        VALUES (${folioId}, (SELECT COALESCE(max(position) + 1, 0) FROM folio_lines WHERE folio_id = ${folioId}),
                ${line.kind}, ${line.description}, ${Money.toDb(line.amount)}, ${line.currency}, ${line.rate}, NULL,
                ${now})`

    const cancel = (
      propertyId: string,
      reservationId: string,
      reason: string | null
    ): Effect.Effect<CancelResult, ReservationNotFound | NotCancellable> =>
      Effect.gen(function*() {
        const notFound = new ReservationNotFound({ message: `No reservation ${reservationId}` })
        if (!isUuid(reservationId)) return yield* notFound
        const now = new Date(yield* Clock.currentTimeMillis)
        const [row] = yield* cancellationFacts(sql, propertyId, reservationId, "lock")
        if (row === undefined) return yield* notFound
        const step = Booking.cancelStep({ status: row.status, holdExpiresAt: row.hold_expires_at }, now)
        if (Either.isLeft(step)) return yield* step.left

        // 1. The refund obligation, on the folio (the same figures a cancellation quote at `now` shows).
        const paid = Money.fromDb(row.paid)
        const { settlement } = settlementAt(row, now)
        if (BigDecimal.isPositive(paid)) {
          const rate = yield* rateNow(propertyId, row.currency, row.base_currency)
          if (BigDecimal.isPositive(settlement.refund)) {
            yield* addLine(row.folio_id, {
              kind: "refund",
              description: `Refund due on cancellation (${settlement.refundPercent}%)`,
              amount: settlement.refund,
              currency: row.currency,
              rate
            }, now)
          }
          if (BigDecimal.isPositive(settlement.fee)) {
            yield* addLine(row.folio_id, {
              kind: "cancellation_fee",
              description: `Cancellation fee (${100 - settlement.refundPercent}% of the amount paid)`,
              amount: settlement.fee,
              currency: row.currency,
              rate
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
          yield* sql`
            INSERT INTO loyalty_ledger (property_id, guest_id, reservation_id, kind, points, created_at)
            VALUES (${propertyId}, ${row.guest_id}, ${row.id}, 'reversal', ${-earned}, ${now})`
        }
        // 4. Cancelled; the accommodation too, which releases the inventory.
        yield* sql`
          UPDATE reservations
          SET status = 'cancelled', cancelled_at = ${now},
              cancellation_reason = ${reason ?? Booking.defaultCancellationReason}, updated_at = ${now}
          WHERE id = ${row.id}`
        yield* sql`UPDATE accommodations SET status = 'cancelled' WHERE reservation_id = ${row.id}`
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
