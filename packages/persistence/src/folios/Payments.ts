import * as SqlClient from "effect/sql/SqlClient"
import {
  CurrencyMismatch,
  InvalidParameters,
  InvalidStatusTransition,
  isUuid,
  Money,
  type PaymentReferenceReused,
  ReservationNotFound
} from "@hotel/domain"
import * as BigDecimal from "effect/BigDecimal"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { folioLinesOf, rateToBase } from "./FolioLines.js"
import type { FolioLineRow } from "../booking/ReservationQueries.js"
import { recordPayment, referenceReused, reservationOfReference } from "./PaymentRecords.js"
import { lockReservationThen } from "../booking/ReservationLock.js"
import { appendEvent, type EventOutbox } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// `POST /reservations/{id}/payments`: a further payment on a confirmed or checked-in reservation (what a change
// left owing). First the fields: the amount a decimal string above zero (400 `invalid_parameters`, `param`
// `amount`), whatever the reservation. Then one transaction that locks the reservation row (the lock a change,
// confirm, cancel and check-in take, so a payment is never lost between them): the reservation (404), its
// currency (400 `currency_mismatch`, `param` `currency`), the amount's decimals in it (400 `amount`), its status (409
// `invalid_status_transition`), a reference recorded on any reservation (409 `payment_reference_reused`, the
// payments' unique index being the final word), the payment line and row, and `folio.payment_recorded`.

export interface PaymentRequest {
  readonly reference: string
  readonly amount: string
  readonly currency: string
}

export interface PaymentRecorded {
  readonly reservationId: string
  readonly reference: string
  readonly amount: Money.Amount
  readonly currency: string
  readonly lines: ReadonlyArray<FolioLineRow>
  readonly baseCurrency: string
}

export type PaymentError =
  | ReservationNotFound
  | CurrencyMismatch
  | InvalidParameters
  | InvalidStatusTransition
  | PaymentReferenceReused

interface PayableRow {
  readonly id: string
  readonly status: string
  readonly currency: string
  readonly folio_id: string
  readonly base_currency: string
}

/** The amount: a decimal string in the currency's minor units, above zero. */
const amountOf = (amount: string, currency: string) =>
  Result.flatMap(
    Result.mapError(Money.parse(amount, currency), (problem) =>
      new InvalidParameters({ message: `amount ${Money.problemMessage(problem, currency)}`, param: "amount" })),
    (parsed) =>
      BigDecimal.isPositive(parsed)
        ? Result.succeed(parsed)
        : Result.fail(new InvalidParameters({ message: "amount must be above zero", param: "amount" }))
  )

/**
 * What of the amount is a field's check, made before the reservation is read: a decimal string above zero. Its
 * decimals wait for the reservation's currency, so that "10.00" in yen on a euro stay is a `currency_mismatch`.
 */
const amountShape = (amount: string, currency: string): Result.Result<void, InvalidParameters> => {
  const parsed = Money.parse(amount, currency)
  return Result.isFailure(parsed) && parsed.failure === "precision"
    ? Result.succeed(undefined)
    : Result.map(amountOf(amount, currency), () => undefined)
}

export class Payments extends Context.Service<Payments>()("@hotel/persistence/folios/Payments", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const readPayable = (propertyId: string, id: string) =>
      sql<PayableRow>`
        SELECT r.id, r.status, r.currency, f.id AS folio_id, p.base_currency
        FROM reservations r JOIN folios f ON f.reservation_id = r.id JOIN properties p ON p.id = r.property_id
        WHERE r.property_id = ${propertyId} AND r.id = ${id}`

    const record = (
      propertyId: string,
      reservationId: string,
      request: PaymentRequest
    ): Effect.Effect<PaymentRecorded, PaymentError, EventOutbox> =>
      Effect.gen(function*() {
        yield* Effect.fromResult(amountShape(request.amount, request.currency.toUpperCase()))
        const notFound = new ReservationNotFound({ message: `No reservation ${reservationId}` })
        if (!isUuid(reservationId)) return yield* notFound
        const now = new Date(yield* Clock.currentTimeMillis)
        const [row] = yield* lockReservationThen(sql, propertyId, reservationId, readPayable(propertyId, reservationId))
        if (row === undefined) return yield* notFound
        if (request.currency.toUpperCase() !== row.currency) {
          return yield* new CurrencyMismatch({
            message: `currency ${request.currency} differs from the reservation currency ${row.currency}`,
            param: "currency"
          })
        }
        const amount = yield* Effect.fromResult(amountOf(request.amount, row.currency))
        if (row.status !== "confirmed" && row.status !== "checked_in") {
          return yield* new InvalidStatusTransition({
            message: `A reservation that is ${row.status.replace("_", " ")} takes no payment; confirm a hold with its payment`
          })
        }
        if ((yield* reservationOfReference(sql, propertyId, request.reference)) !== null) return yield* referenceReused
        const exchangeRate = yield* rateToBase(sql, propertyId, row.currency, row.base_currency)
        yield* recordPayment(sql, {
          propertyId,
          reservationId: row.id,
          folioId: row.folio_id,
          reference: request.reference,
          amount,
          currency: row.currency,
          exchangeRate
        }, now)
        yield* appendEvent(propertyId, "folio.payment_recorded", Subject.folio(row.folio_id))
        const lines = yield* folioLinesOf(sql, row.folio_id)
        return { reservationId: row.id, reference: request.reference, amount, currency: row.currency, lines, baseCurrency: row.base_currency }
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        withSpan("Payments.record")
      )

    return { record } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
