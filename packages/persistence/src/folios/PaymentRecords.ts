import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Money, PaymentReferenceReused } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { appendLine } from "./FolioLines.js"
import { isUniqueViolation } from "../rates/RateSql.js"

// A payment on a folio: its `payment` line and its row in `payments`, whose unique index on (property,
// reference) is the one rule for a reference, shared by a confirm and by `POST /reservations/{id}/payments`: a
// reference is recorded once in the property, on one reservation. Run it in the caller's transaction, under the
// reservation's row lock (the line's position relies on it).

export const referenceReused = new PaymentReferenceReused({
  message: "This payment_reference is already recorded on another reservation"
})

/** The reservation a reference was recorded on, if any. */
export const reservationOfReference = (sql: SqlClient.SqlClient, propertyId: string, reference: string) =>
  sql<{ reservation_id: string }>`
    SELECT reservation_id FROM payments WHERE property_id = ${propertyId} AND reference = ${reference}`.pipe(
    Effect.map((rows) => rows[0]?.reservation_id ?? null)
  )

export interface PaymentRecord {
  readonly propertyId: string
  readonly reservationId: string
  readonly folioId: string
  readonly reference: string
  readonly amount: Money.Amount
  readonly currency: string
  /** Base units per one unit of `currency` now (`rateToBase`). */
  readonly exchangeRate: string | null
}

/** The payment line and row; a reference recorded meanwhile (the unique index) is `payment_reference_reused`. */
export const recordPayment = (sql: SqlClient.SqlClient, payment: PaymentRecord, now: Date) =>
  Effect.gen(function*() {
    yield* appendLine(sql, payment.folioId, {
      kind: "payment",
      description: `Payment ${payment.reference}`,
      amount: payment.amount,
      currency: payment.currency,
      exchangeRate: payment.exchangeRate
    }, now)
    yield* sql`
      INSERT INTO payments (property_id, reservation_id, folio_id, reference, amount, currency, created_at)
      VALUES (${payment.propertyId}, ${payment.reservationId}, ${payment.folioId}, ${payment.reference},
              ${Money.toDb(payment.amount)}, ${payment.currency}, ${now})`.pipe(
      Effect.catchTag("SqlError", (error): Effect.Effect<never, PaymentReferenceReused | SqlError> =>
        isUniqueViolation(error, "payments_property_id_reference_key") ? Effect.fail(referenceReused) : Effect.fail(error))
    )
  })
