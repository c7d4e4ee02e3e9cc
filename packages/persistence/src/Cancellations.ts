import * as SqlClient from "@effect/sql/SqlClient"
import { Booking, Cancellation, isUuid, Money, type NotCancellable, ReservationNotFound } from "@hotel/domain"
import * as BigDecimal from "effect/BigDecimal"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { toPolicy } from "./PricingInputs.js"

// `POST /reservations/{id}/cancel` (interface 4.9, decisions 5): one transaction that locks the reservation row
// and, in this order, writes the refund obligation on the folio (a `refund` line, and a `cancellation_fee`
// line for what the property keeps of the paid amount, so the cancelled folio balances), voids the folio
// (lines kept for audit), reverses the loyalty points the stay earned, then marks the reservation cancelled and
// its accommodation cancelled, which releases the inventory.
//
// The policy is the one frozen on the reservation at hold time (the terms the quote showed); a reservation
// without one falls back to its plan's policy, then the property's. Days before arrival are counted in the
// property's local calendar at `now` from `Clock`.

type PolicyJson = ReadonlyArray<{ readonly days_before_arrival: number; readonly refund_percent: number }>

interface LockedReservation {
  readonly id: string
  readonly status: string
  readonly hold_expires_at: Date | null
  readonly guest_id: string
  readonly check_in_date: string
  readonly currency: string
  readonly folio_id: string
  readonly frozen_policy: PolicyJson | null
  readonly plan_policy: PolicyJson | null
  readonly property_policy: PolicyJson
  readonly timezone: string
  readonly base_currency: string
}

export interface CancelResult {
  readonly reservationId: string
  readonly currency: string
  readonly refundDueMinor: bigint
  readonly refundPercent: number
}

export class Cancellations extends Effect.Service<Cancellations>()("@hotel/persistence/Cancellations", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const lockReservation = (propertyId: string, id: string) =>
      sql<LockedReservation>`
        SELECT r.id, r.status, r.hold_expires_at, r.guest_id, r.check_in_date, r.currency, f.id AS folio_id,
               r.cancellation_policy AS frozen_policy, rp.cancellation_policy AS plan_policy,
               p.cancellation_policy AS property_policy, p.timezone, p.base_currency
        FROM reservations r
        JOIN folios f ON f.reservation_id = r.id
        JOIN rate_plans rp ON rp.id = r.rate_plan_id
        JOIN properties p ON p.id = r.property_id
        WHERE r.property_id = ${propertyId} AND r.id = ${id}
        FOR NO KEY UPDATE OF r`

    /** Money paid in the reservation currency: its payments less any refunds already written. */
    const paidIn = (folioId: string, currency: string) =>
      sql<{ paid: string }>`
        SELECT COALESCE(sum(CASE WHEN kind = 'payment' THEN amount ELSE -amount END), 0)::text AS paid
        FROM folio_lines
        WHERE folio_id = ${folioId} AND currency = ${currency} AND kind IN ('payment', 'refund')`.pipe(
        Effect.map((rows) => Money.fromDb(rows[0]?.paid ?? "0"))
      )

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
        const [row] = yield* lockReservation(propertyId, reservationId)
        if (row === undefined) return yield* notFound
        const step = Booking.cancelStep({ status: row.status, holdExpiresAt: row.hold_expires_at }, now)
        if (Either.isLeft(step)) return yield* step.left

        // 1. The refund obligation, on the folio.
        const paid = yield* paidIn(row.folio_id, row.currency)
        const settlement = Booking.settleCancellation({
          tiers: toPolicy(Cancellation.tiersInForce(row.frozen_policy, row.plan_policy, row.property_policy)),
          checkIn: row.check_in_date,
          timeZone: row.timezone,
          now,
          paid,
          currency: row.currency
        })
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
