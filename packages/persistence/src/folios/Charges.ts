import * as SqlClient from "effect/sql/SqlClient"
import {
  Folio,
  type InvalidParameters,
  type InvalidStatusTransition,
  isUuid,
  Money,
  Rates,
  ReservationNotFound,
  ServiceNotFound
} from "@hotel/domain"
import * as BigDecimal from "effect/BigDecimal"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { appendEvent, type EventOutbox } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import { appendLine, type FolioLineDetail, folioLinesOf, rateToBase } from "./FolioLines.js"
import { lockReservationThen } from "../booking/ReservationLock.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// `POST /reservations/{id}/charges`: one transaction that locks the reservation row (the lock the
// confirm and the cancel take, so a charge never lands on a folio being cancelled), checks the status, then
// locks the reservation's matching credit entitlements (`FOR UPDATE`, in their stored order) and writes the
// charge line, one `credit` line per credit it consumes (`Folio.consumeCredits` decides, from the locked credits) (never beyond the credit's remaining allowance) and the
// credits' new `consumed`. Lock order: reservation row, then its entitlements.
//
// Order of checks: the amount in the currency's minor units (400 `amount`) → the reservation (404)
// → the service when one is named (404 `service_not_found`) → the status (409 `invalid_status_transition`).
//
// Every line of the charge carries the exchange rate in force when it is written: 1 for the base currency, the
// configured `rate_to_base` for another, null for a currency without a configured rate.

export interface ChargeRequest {
  readonly description: string
  /** The unit price as sent (a decimal string, checked here against the currency's minor units). */
  readonly amount: string
  readonly currency: string
  readonly revenueCategory: string
  readonly serviceId: string | null
  readonly quantity: number
}

export interface ChargeResult {
  readonly reservationId: string
  readonly folioId: string
  /** The charge line's id. */
  readonly chargeId: string
  /** The lines this charge wrote: the charge, then its credit lines. */
  readonly written: ReadonlyArray<FolioLineDetail>
  /** What credits covered, in the charge's currency. */
  readonly creditApplied: Money.Amount
  readonly currency: string
  /** Every line of the folio after the charge, for its figures. */
  readonly lines: ReadonlyArray<FolioLineDetail>
  readonly baseCurrency: string
}

export type ChargeError = InvalidParameters | ReservationNotFound | ServiceNotFound | InvalidStatusTransition

interface LockedReservation {
  readonly id: string
  readonly status: string
  readonly hold_expires_at: Date | null
  readonly folio_id: string
  readonly base_currency: string
}

interface CreditRow {
  readonly id: string
  readonly label: string
  readonly revenue_category: string
  readonly currency: string
  readonly allowance: string
  readonly consumed: string
}

const toCredit = (credit: CreditRow): Folio.CreditEntitlement => ({
  id: credit.id,
  label: credit.label,
  revenueCategory: credit.revenue_category,
  currency: credit.currency,
  allowance: Money.fromDb(credit.allowance),
  consumed: Money.fromDb(credit.consumed)
})

export class Charges extends Context.Service<Charges>()("@hotel/persistence/folios/Charges", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // The lock in its own statement, then the read (ReservationLock.ts says why).
    const lockReservation = (propertyId: string, id: string) =>
      lockReservationThen(sql, propertyId, id, readReservation(propertyId, id))

    const readReservation = (propertyId: string, id: string) =>
      sql<LockedReservation>`
        SELECT r.id, r.status, r.hold_expires_at, f.id AS folio_id, p.base_currency
        FROM reservations r
        JOIN folios f ON f.reservation_id = r.id
        JOIN properties p ON p.id = r.property_id
        WHERE r.property_id = ${propertyId} AND r.id = ${id}`

    const lockCredits = (reservationId: string, revenueCategory: string, currency: string) =>
      sql<CreditRow>`
        SELECT id, label, revenue_category, currency, allowance::text AS allowance, consumed::text AS consumed
        FROM entitlements
        WHERE reservation_id = ${reservationId} AND inclusion_kind = 'credit'
          AND revenue_category = ${revenueCategory} AND currency = ${currency}
        ORDER BY position, id
        FOR UPDATE`

    /** The charge line, then one credit line per credit it consumes and the credit's new `consumed`. */
    const write = (
      propertyId: string,
      row: LockedReservation,
      request: ChargeRequest,
      amount: Money.Amount,
      uses: ReadonlyArray<Folio.CreditUse>,
      now: Date
    ) =>
      Effect.gen(function*() {
        const exchangeRate = yield* rateToBase(sql, propertyId, request.currency, row.base_currency)
        const chargeId = yield* appendLine(sql, row.folio_id, {
          kind: "charge",
          description: request.description,
          amount,
          currency: request.currency,
          exchangeRate,
          revenueCategory: request.revenueCategory,
          serviceId: request.serviceId,
          quantity: request.quantity
        }, now)
        const creditIds: Array<string> = []
        for (const use of uses) {
          creditIds.push(
            yield* appendLine(sql, row.folio_id, {
              kind: "credit",
              description: `Credit: ${use.label}`,
              amount: use.amount,
              currency: request.currency,
              exchangeRate,
              revenueCategory: request.revenueCategory,
              entitlementId: use.entitlementId,
              appliesToLineId: chargeId
            }, now)
          )
          yield* sql`UPDATE entitlements SET consumed = ${Money.toDb(use.consumedAfter)} WHERE id = ${use.entitlementId}`
        }
        return [chargeId, ...creditIds] as const
      })

    const post = (
      propertyId: string,
      reservationId: string,
      request: ChargeRequest
    ): Effect.Effect<ChargeResult, ChargeError, EventOutbox> =>
      Effect.gen(function*() {
        const unitPrice = Money.fromDb(yield* Effect.fromResult(Rates.Checks.money("amount", request.amount, request.currency)))
        const notFound = new ReservationNotFound({ message: `No reservation ${reservationId}` })
        if (!isUuid(reservationId)) return yield* notFound
        const now = new Date(yield* Clock.currentTimeMillis)
        const [row] = yield* lockReservation(propertyId, reservationId)
        if (row === undefined) return yield* notFound
        if (request.serviceId !== null) {
          const found = yield* sql<{ id: string }>`
            SELECT id FROM services WHERE property_id = ${propertyId} AND id = ${request.serviceId}`
          if (found.length === 0) return yield* new ServiceNotFound({ message: `No service ${request.serviceId}` })
        }
        const step = Folio.chargeStep({ status: row.status, holdExpiresAt: row.hold_expires_at }, now)
        if (Result.isFailure(step)) return yield* step.failure

        const credits = yield* lockCredits(row.id, request.revenueCategory, request.currency)
        const amount = Folio.chargeLineAmount(unitPrice, request.quantity, request.currency)
        const [{ charged }] = yield* sql<{ charged: string }>`
          SELECT COALESCE(sum(amount), 0)::text AS charged FROM folio_lines
          WHERE folio_id = ${row.folio_id} AND currency = ${request.currency} AND kind IN ${sql.in(Folio.chargeKinds)}`
        const fits = Folio.checkFolioCharges(Money.fromDb(charged), amount, request.currency)
        if (Result.isFailure(fits)) return yield* fits.failure
        const uses = Folio.consumeCredits(
          credits.map(toCredit),
          { amount, currency: request.currency, revenueCategory: request.revenueCategory }
        )
        const writtenIds = yield* write(propertyId, row, request, amount, uses, now)

        yield* appendEvent(propertyId, "folio.charge_posted", Subject.folio(row.folio_id))
        const lines = yield* folioLinesOf(sql, row.folio_id)
        return {
          reservationId: row.id,
          folioId: row.folio_id,
          chargeId: writtenIds[0],
          written: writtenIds.flatMap((id) => lines.filter((line) => line.id === id)),
          creditApplied: BigDecimal.normalize(Folio.coveredBy(uses)),
          currency: request.currency,
          lines,
          baseCurrency: row.base_currency
        }
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        withSpan("Charges.post")
      )

    return { post } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
