import * as SqlClient from "@effect/sql/SqlClient"
import { Booking, Cancellation, isUuid, Money, type NotCancellable, ReservationNotFound } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { toPolicy } from "./PricingInputs.js"

// `GET /reservations/{id}/cancellation-quote` (decisions 3.1): what `POST /reservations/{id}/cancel` would owe at
// this instant, without changing anything. The figures come from the cancel's own inputs and computation
// (`Cancellations`): the policy frozen on the reservation (else its plan's, else the property's), the money paid
// in the reservation currency (its payment lines less refund lines), the property's local "today" at `now` from
// `Clock`, and `Booking.settleCancellation`; `tier_until` is the end of the term in force. A reservation a cancel
// would refuse (an expired hold, cancelled, checked in or out, no-show) is 409 `not_cancellable`, like the cancel.
//
// Everything is read in one statement, so the quote is of one consistent state.

type PolicyJson = ReadonlyArray<{ readonly days_before_arrival: number; readonly refund_percent: number }>

interface QuoteFacts {
  readonly id: string
  readonly status: string
  readonly hold_expires_at: Date | null
  readonly check_in_date: string
  readonly currency: string
  readonly frozen_policy: PolicyJson | null
  readonly plan_policy: PolicyJson | null
  readonly property_policy: PolicyJson
  readonly timezone: string
  /** Payments less refunds in the reservation currency. */
  readonly paid: string
}

export interface CancellationQuoteResult {
  readonly reservationId: string
  readonly currency: string
  readonly refundDueMinor: bigint
  readonly refundPercent: number
  readonly tierUntil: string | null
  readonly quotedAt: Date
}

export class CancellationQuote extends Effect.Service<CancellationQuote>()("@hotel/persistence/CancellationQuote", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const facts = (propertyId: string, id: string) =>
      sql<QuoteFacts>`
        SELECT r.id, r.status, r.hold_expires_at, r.check_in_date, r.currency,
               r.cancellation_policy AS frozen_policy, rp.cancellation_policy AS plan_policy,
               p.cancellation_policy AS property_policy, p.timezone,
               (SELECT COALESCE(sum(CASE WHEN l.kind = 'payment' THEN l.amount ELSE -l.amount END), 0)::text
                FROM folio_lines l
                WHERE l.folio_id = f.id AND l.currency = r.currency AND l.kind IN ('payment', 'refund')) AS paid
        FROM reservations r
        JOIN folios f ON f.reservation_id = r.id
        JOIN rate_plans rp ON rp.id = r.rate_plan_id
        JOIN properties p ON p.id = r.property_id
        WHERE r.property_id = ${propertyId} AND r.id = ${id}`

    const quote = (
      propertyId: string,
      reservationId: string
    ): Effect.Effect<CancellationQuoteResult, ReservationNotFound | NotCancellable> =>
      Effect.gen(function*() {
        const notFound = new ReservationNotFound({ message: `No reservation ${reservationId}` })
        if (!isUuid(reservationId)) return yield* notFound
        const now = new Date(yield* Clock.currentTimeMillis)
        const [row] = yield* facts(propertyId, reservationId)
        if (row === undefined) return yield* notFound
        const step = Booking.cancelStep({ status: row.status, holdExpiresAt: row.hold_expires_at }, now)
        if (Either.isLeft(step)) return yield* step.left
        const { settlement, tierUntil } = Cancellation.quoteCancellation({
          tiers: toPolicy(Cancellation.tiersInForce(row.frozen_policy, row.plan_policy, row.property_policy)),
          checkIn: row.check_in_date,
          timeZone: row.timezone,
          now,
          paid: Money.fromDb(row.paid),
          currency: row.currency
        })
        return {
          reservationId: row.id,
          currency: row.currency,
          refundDueMinor: settlement.refundDueMinor,
          refundPercent: settlement.refundPercent,
          tierUntil,
          quotedAt: now
        }
      }).pipe(
        Effect.catchTag("SqlError", Effect.die),
        Effect.withSpan("CancellationQuote.quote")
      )

    return { quote } as const
  })
}) {}
