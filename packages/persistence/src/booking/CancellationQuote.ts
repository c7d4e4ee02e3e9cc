import * as SqlClient from "effect/sql/SqlClient"
import { Booking, Cancellation, isUuid, type NotCancellable, ReservationNotFound } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { paidLinesColumn, type PaidLineJson, paidTowards } from "../folios/FolioLines.js"
import { toPolicy } from "../quotes/PricingInputs.js"
import { lockReservationThen } from "./ReservationLock.js"
import { withSpan } from "../database/Span.js"

// `GET /reservations/{id}/cancellation-quote`: what `POST /reservations/{id}/cancel` would owe at
// this instant, without changing anything. The figures come from the cancel's own inputs and computation: the
// policy frozen on the reservation (else its plan's, else the property's: `Cancellation.tiersInForce`), what was
// paid towards the stay (`Folio.paidTowardsStay` over the folio's lines: payments less refunds and change fees
// already written, in the reservation currency), the property's local "today" at `now`
// from `Clock`, and `Booking.settleCancellation` (through `Cancellation.quoteCancellation`); `tier_until` is the
// end of the term in force. A reservation a cancel would refuse (an expired hold, cancelled, checked in or out,
// no-show) is 409 `not_cancellable`, like the cancel.
//
// `cancellableFacts` and `settlementAt` are the cancel's inputs, checks and figures in one place: the cancel reads
// them with the reservation row locked (`"lock"`) and gets exactly what a quote at that instant shows.
// Everything is read in one statement, so a quote is of one consistent state.
type PolicyJson = ReadonlyArray<{ readonly days_before_arrival: number; readonly refund_percent: number }>

/** What a cancel of a reservation needs to know (and what a quote shows). */
export interface CancellationFacts {
  readonly id: string
  readonly status: string
  readonly hold_expires_at: Date | null
  readonly guest_id: string
  readonly check_in_date: string
  readonly check_out_date: string
  readonly room_type_id: string
  readonly currency: string
  readonly folio_id: string
  readonly frozen_policy: PolicyJson | null
  readonly plan_policy: PolicyJson | null
  readonly property_policy: PolicyJson
  readonly timezone: string
  readonly base_currency: string
  /** The folio's lines, from which what was paid towards the stay is decided (`paidOf`). */
  readonly paid_lines: ReadonlyArray<PaidLineJson>
}

/**
 * The facts of a property's reservation, in one statement; with `"lock"`, the reservation row is locked first,
 * in a statement of its own (`lockReservationThen`), so the facts include what the last holder of the lock
 * committed (a racing confirm's payment). No row: no such reservation.
 */
export const cancellationFacts = (sql: SqlClient.SqlClient, propertyId: string, id: string, lock: "lock" | "read") =>
  lock === "lock" ? lockReservationThen(sql, propertyId, id, readFacts(sql, propertyId, id)) : readFacts(sql, propertyId, id)

const readFacts = (sql: SqlClient.SqlClient, propertyId: string, id: string) =>
  sql<CancellationFacts>`
    SELECT r.id, r.status, r.hold_expires_at, r.guest_id, r.check_in_date, r.check_out_date, r.room_type_id, r.currency, f.id AS folio_id,
           r.cancellation_policy AS frozen_policy, rp.cancellation_policy AS plan_policy,
           p.cancellation_policy AS property_policy, p.timezone, p.base_currency,
           ${paidLinesColumn(sql)} AS paid_lines
    FROM reservations r
    JOIN folios f ON f.reservation_id = r.id
    JOIN rate_plans rp ON rp.id = r.rate_plan_id
    JOIN properties p ON p.id = r.property_id
    WHERE r.property_id = ${propertyId} AND r.id = ${id}`

/** What was paid towards the stay: what a cancel's refund and fee share out. */
export const paidOf = (facts: CancellationFacts) => paidTowards(facts.paid_lines, facts.currency)

/** What a cancel at `now` owes, and until when the percentage applies. */
export const settlementAt = (facts: CancellationFacts, now: Date): Cancellation.CancellationQuote =>
  Cancellation.quoteCancellation({
    tiers: toPolicy(Cancellation.tiersInForce(facts.frozen_policy, facts.plan_policy, facts.property_policy)),
    checkIn: facts.check_in_date,
    timeZone: facts.timezone,
    now,
    paid: paidOf(facts),
    currency: facts.currency
  })

/**
 * The facts of a reservation a cancel at `now` (from `Clock`) would go ahead with: 404 for no such reservation,
 * 409 `not_cancellable` for one a cancel refuses. The quote and the cancel share it so they refuse alike.
 */
export const cancellableFacts = (
  sql: SqlClient.SqlClient,
  propertyId: string,
  reservationId: string,
  lock: "lock" | "read"
) =>
  Effect.gen(function*() {
    const notFound = new ReservationNotFound({ message: `No reservation ${reservationId}` })
    if (!isUuid(reservationId)) return yield* notFound
    const now = new Date(yield* Clock.currentTimeMillis)
    const [row] = yield* cancellationFacts(sql, propertyId, reservationId, lock)
    if (row === undefined) return yield* notFound
    const step = Booking.cancelStep({ status: row.status, holdExpiresAt: row.hold_expires_at }, now)
    if (Result.isFailure(step)) return yield* step.failure
    return { row, now }
  })

export interface CancellationQuoteResult {
  readonly reservationId: string
  readonly currency: string
  readonly refundDueMinor: bigint
  readonly refundPercent: number
  readonly tierUntil: string | null
  readonly quotedAt: Date
}

export class CancellationQuote extends Context.Service<CancellationQuote>()("@hotel/persistence/booking/CancellationQuote", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const quote = (
      propertyId: string,
      reservationId: string
    ): Effect.Effect<CancellationQuoteResult, ReservationNotFound | NotCancellable> =>
      Effect.gen(function*() {
        const { now, row } = yield* cancellableFacts(sql, propertyId, reservationId, "read")
        const { settlement, tierUntil } = settlementAt(row, now)
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
        withSpan("CancellationQuote.quote")
      )

    return { quote } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
