import * as SqlClient from "@effect/sql/SqlClient"
import { Booking, isUuid, Money, NoAvailability, ReservationNotFound } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { amountDue, folioLinesOf, rateToBase } from "../folios/FolioLines.js"
import { recordPayment, referenceReused, reservationOfReference } from "../folios/PaymentRecords.js"
import { Inventory } from "../quotes/Inventory.js"
import { addLedgerEntry } from "../guests/LoyaltyLedger.js"
import type { ConfirmActor, ConfirmError, ConfirmRequest, ConfirmResult } from "./confirmations/requests.js"
import { lockReservationThen } from "./ReservationLock.js"
import { appendEvent, type EventOutbox } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import * as Metric from "effect/Metric"
import { countNoAvailability, holdsConfirmed } from "./BookingMetrics.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

export { amountDue } from "../folios/FolioLines.js"

// `POST /holds/{id}/confirm`: one transaction that first locks the reservation row,
// so concurrent confirms of one hold run one at a time and all but the first find it confirmed
// (`already_confirmed`, nothing recorded twice). Then, for a live hold: the payment assertions (currency, amount:
// `Booking.confirmPayment`, a pure decision on the loaded folio),
// a reference already recorded on another reservation (409 `payment_reference_reused`, also enforced by the
// payments table's unique index), the availability re-check without the hold itself (under the room type's
// lock, the one holds take, so an expiring hold cannot be re-sold and confirmed at once), and the writes:
// reservation and accommodation confirmed, the payment line and row, the loyalty earn (USD) or skipped earn
// (other currencies; `Booking.earnOnConfirm` decides), and the audit row of the assertion.
//
// Lock order: reservation row, then room type row. Holds lock guest, key, room type (then codes), never wait on
// a reservation row; cancels take only the reservation row; the sweeper skips locked rows. No cycle.

export type { ConfirmActor, ConfirmError, ConfirmRequest, ConfirmResult } from "./confirmations/requests.js"

interface LockedReservation {
  readonly id: string
  readonly status: string
  readonly hold_expires_at: Date | null
  readonly cancellation_reason: string | null
  readonly guest_id: string
  readonly room_type_id: string
  readonly check_in_date: string
  readonly check_out_date: string
  readonly currency: string
  readonly room_revenue: string
  readonly folio_id: string
  readonly folio_status: string
  readonly base_currency: string
  readonly loyalty_points_per_usd: number
}

export class Confirmations extends Effect.Service<Confirmations>()("@hotel/persistence/booking/Confirmations", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inventory = yield* Inventory

    // The lock in its own statement, then the read (ReservationLock.ts says why).
    const lockReservation = (propertyId: string, id: string) =>
      lockReservationThen(sql, propertyId, id, readReservation(propertyId, id))

    const readReservation = (propertyId: string, id: string) =>
      sql<LockedReservation>`
        SELECT r.id, r.status, r.hold_expires_at, r.cancellation_reason, r.guest_id, r.room_type_id, r.check_in_date,
               r.check_out_date,
               r.currency, r.room_revenue::text AS room_revenue, f.id AS folio_id, f.status AS folio_status,
               p.base_currency, p.loyalty_points_per_usd
        FROM reservations r
        JOIN folios f ON f.reservation_id = r.id
        JOIN properties p ON p.id = r.property_id
        WHERE r.property_id = ${propertyId} AND r.id = ${id}`

    const result = (row: LockedReservation, alreadyConfirmed: boolean, voided: boolean) =>
      Effect.map(folioLinesOf(sql, row.folio_id), (lines): ConfirmResult => ({
        reservationId: row.id,
        checkIn: row.check_in_date,
        checkOut: row.check_out_date,
        currency: row.currency,
        alreadyConfirmed,
        folioVoided: voided,
        lines,
        baseCurrency: row.base_currency
      }))

    /** A reference already recorded on another reservation (the payments' unique index says the same). */
    const checkReference = (propertyId: string, reservationId: string, reference: string) =>
      Effect.flatMap(reservationOfReference(sql, propertyId, reference), (used) =>
        used !== null && used !== reservationId ? Effect.fail(referenceReused) : Effect.void)

    /** Availability without the hold itself, under the room type's lock (the one holds take). */
    const checkAvailability = (propertyId: string, row: LockedReservation, now: Date) =>
      Effect.gen(function*() {
        yield* sql`SELECT id FROM room_types WHERE id = ${row.room_type_id} FOR NO KEY UPDATE`
        const [stock] = yield* inventory.available(propertyId, {
          roomTypeId: row.room_type_id,
          from: row.check_in_date,
          to: row.check_out_date,
          now,
          excludeReservationId: row.id
        })
        if ((stock?.available ?? 0) < 1) {
          return yield* new NoAvailability({
            message: `The room type is no longer free on every night from ${row.check_in_date} to ${row.check_out_date}`
          })
        }
      })

    /** The payment line and row (`PaymentRecords`, the one rule for a reference). */
    const payFolio = (actor: ConfirmActor, row: LockedReservation, reference: string, due: Money.Amount, now: Date) =>
      Effect.flatMap(rateToBase(sql, actor.propertyId, row.currency, row.base_currency), (exchangeRate) =>
        recordPayment(sql, {
          propertyId: actor.propertyId,
          reservationId: row.id,
          folioId: row.folio_id,
          reference,
          amount: due,
          currency: row.currency,
          exchangeRate
        }, now))

    const recordEarn = (propertyId: string, row: LockedReservation, now: Date) => {
      const earn = Booking.earnOnConfirm(row.currency, Money.fromDb(row.room_revenue), row.loyalty_points_per_usd)
      switch (earn._tag) {
        case "Earn":
          return addLedgerEntry(sql, {
            propertyId,
            guestId: row.guest_id,
            reservationId: row.id,
            kind: "earn",
            points: earn.points
          }, now)
        case "Skipped":
          return sql`
            INSERT INTO loyalty_skipped_earns (reservation_id, currency, room_revenue, created_at)
            VALUES (${row.id}, ${row.currency}, ${row.room_revenue}, ${now})`
        case "None":
          return Effect.void
      }
    }

    /** Every write of a confirm, in the order the header describes. */
    const write = (actor: ConfirmActor, row: LockedReservation, reference: string, due: Money.Amount, now: Date) =>
      Effect.gen(function*() {
        yield* sql`
          UPDATE reservations SET status = 'confirmed', confirmed_at = ${now}, updated_at = ${now}
          WHERE id = ${row.id}`
        yield* sql`UPDATE accommodations SET status = 'confirmed' WHERE reservation_id = ${row.id}`
        yield* payFolio(actor, row, reference, due, now)
        yield* recordEarn(actor.propertyId, row, now)
        yield* sql`
          INSERT INTO confirm_audit (reservation_id, api_key_id, payment_reference, asserted_amount, asserted_currency,
                                     request_id, created_at)
          VALUES (${row.id}, ${actor.apiKeyId}, ${reference}, ${Money.toDb(due)}, ${row.currency},
                  ${actor.requestId}, ${now})`
        yield* appendEvent(actor.propertyId, "reservation.confirmed", Subject.reservation(row.id))
      })

    const confirm = (
      actor: ConfirmActor,
      reservationId: string,
      request: ConfirmRequest
    ): Effect.Effect<ConfirmResult, ConfirmError, EventOutbox> =>
      Effect.gen(function*() {
        const notFound = new ReservationNotFound({ message: `No reservation ${reservationId}` })
        if (!isUuid(reservationId)) return yield* notFound
        const now = new Date(yield* Clock.currentTimeMillis)
        const [row] = yield* lockReservation(actor.propertyId, reservationId)
        if (row === undefined) return yield* notFound

        const step = Booking.confirmStep({
          status: row.status,
          holdExpiresAt: row.hold_expires_at,
          cancellationReason: row.cancellation_reason
        }, now)
        if (Either.isLeft(step)) return yield* step.left
        if (step.right === "already_confirmed") return yield* result(row, true, row.folio_status === "voided")

        const lines = yield* folioLinesOf(sql, row.folio_id)
        const due = amountDue(lines, row.currency, row.folio_status === "voided")
        const payment = Booking.confirmPayment({ amount: due, currency: row.currency }, request)
        if (Either.isLeft(payment)) return yield* payment.left
        yield* checkReference(actor.propertyId, row.id, request.paymentReference)
        yield* checkAvailability(actor.propertyId, row, now)

        yield* write(actor, row, request.paymentReference, payment.right, now)
        return yield* result(row, false, false)
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        Effect.tap((confirmed) => confirmed.alreadyConfirmed ? Effect.void : Metric.increment(holdsConfirmed)),
        countNoAvailability,
        withSpan("Confirmations.confirm")
      )

    return { confirm } as const
  }),
  dependencies: [Inventory.Default]
}) {}
