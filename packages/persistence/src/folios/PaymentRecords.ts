import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { Money, PaymentReferenceReused } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { appendLine } from "./FolioLines.js"
import { isUniqueViolation } from "../database/ConstraintViolation.js"

// A payment on a folio: its `payment` line and its row in `payments`, whose unique index on (property,
// reference) over the rows that claim their reference is the one rule for a reference, shared by a confirm, a
// booking's confirm and `POST /reservations/{id}/payments`: a reference belongs to one payer in the property,
// a reservation or a booking (whose folios each record their share under it, the first share claiming it).
// Run it in the caller's transaction, under the reservation's row lock (the line's position relies on it).

export const referenceReused = new PaymentReferenceReused({
  message: "This payment_reference is already recorded on another reservation or booking"
})

/** Who pays: one reservation, or a booking (every folio of it under one reference). */
export type Payer =
  | { readonly _tag: "Reservation"; readonly reservationId: string }
  | { readonly _tag: "Booking"; readonly bookingId: string }

/** Fails with `referenceReused` when the reference is recorded for another payer. */
export const checkReference = (sql: SqlClient.SqlClient, propertyId: string, payer: Payer, reference: string) =>
  Effect.gen(function*() {
    const used = yield* sql<{ reservation_id: string; booking_id: string | null }>`
      SELECT reservation_id, booking_id FROM payments WHERE property_id = ${propertyId} AND reference = ${reference}`
    const other = used.some((row) =>
      payer._tag === "Booking"
        ? row.booking_id !== payer.bookingId
        : row.booking_id !== null || row.reservation_id !== payer.reservationId
    )
    if (other) return yield* referenceReused
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
  /** The booking this is a share of, and whether this share is the row that claims the reference. */
  readonly booking?: { readonly id: string; readonly claims: boolean } | null | undefined
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
      INSERT INTO payments (property_id, reservation_id, folio_id, reference, amount, currency, booking_id,
                            claims_reference, created_at)
      VALUES (${payment.propertyId}, ${payment.reservationId}, ${payment.folioId}, ${payment.reference},
              ${Money.toDb(payment.amount)}, ${payment.currency}, ${payment.booking?.id ?? null},
              ${payment.booking?.claims ?? true}, ${now})`.pipe(
      Effect.catchTag("SqlError", (error): Effect.Effect<never, PaymentReferenceReused | SqlError> =>
        isUniqueViolation(error, "payments_property_id_reference_key") ? Effect.fail(referenceReused) : Effect.fail(error))
    )
  })
