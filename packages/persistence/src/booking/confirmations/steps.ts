// The steps of a confirm, shared by `POST /holds/{id}/confirm` (../Confirmations.ts) and a booking's confirm
// (../BookingConfirmations.ts), which runs them for each of its reservations in one transaction: the read of the
// locked reservation, the reference check, the availability re-check and the writes.
import type { ReservationStateColumns } from "../ReservationQueries.js"
import type * as SqlClient from "effect/sql/SqlClient"
import { Booking, Money, NoAvailability } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { folioLinesOf, rateToBase } from "../../folios/FolioLines.js"
import { recordPayment } from "../../folios/PaymentRecords.js"
import { addLedgerEntry } from "../../guests/LoyaltyLedger.js"
import type { Inventory } from "../../inventory/Inventory.js"
import { appendEvent } from "../../events/EventOutbox.js"
import { Subject } from "../../events/EventSubject.js"
import type { ConfirmActor, ConfirmResult } from "./requests.js"
import { lockStay } from "../stayLocks.js"

export interface LockedReservation extends ReservationStateColumns {
  readonly room_type_id: string
  readonly check_in_date: string
  readonly check_out_date: string
  readonly currency: string
  readonly room_revenue: string
  /** The sum of the stay's charge lines, NUMERIC text. */
  readonly total: string
  readonly folio_id: string
  readonly folio_status: string
  readonly booking_id: string | null
  readonly block_id: string | null
  /** Each night's overbooking when the hold took it (null for a row written before it was recorded). */
  readonly held_overbooking: ReadonlyArray<number> | null
  readonly base_currency: string
  readonly loyalty_points_per_usd: number
}

export type { Payer } from "../../folios/PaymentRecords.js"

/** The payment a confirm records on one folio: its amount, and the booking it is a share of. */
export interface PaymentShare {
  readonly reference: string
  readonly amount: Money.Amount
  /** The booking, and whether this share is the row that claims the reference (the booking's first). */
  readonly booking: { readonly id: string; readonly claims: boolean } | null
}

/** The reservation's facts a confirm decides on; read after its row lock (ReservationLock.ts says why). */
export const readReservation = (sql: SqlClient.SqlClient, propertyId: string, id: string) =>
  sql<LockedReservation>`
    SELECT r.id, r.status, r.hold_expires_at, r.cancellation_reason, r.guest_id, r.room_type_id, r.check_in_date,
           r.check_out_date, r.currency, r.room_revenue::text AS room_revenue, r.total::text AS total, f.id AS folio_id,
           f.status AS folio_status, r.booking_id, r.block_id, r.held_overbooking, p.base_currency, p.loyalty_points_per_usd
    FROM reservations r
    JOIN folios f ON f.reservation_id = r.id
    JOIN properties p ON p.id = r.property_id
    WHERE r.property_id = ${propertyId} AND r.id = ${id}`

/** What a confirm answers for one reservation, with its folio's lines as they now are. */
export const confirmResult = (sql: SqlClient.SqlClient, row: LockedReservation, alreadyConfirmed: boolean) =>
  Effect.map(folioLinesOf(sql, row.folio_id), (lines): ConfirmResult => ({
    reservationId: row.id,
    checkIn: row.check_in_date,
    checkOut: row.check_out_date,
    currency: row.currency,
    alreadyConfirmed,
    folioVoided: row.folio_status === "voided",
    lines,
    baseCurrency: row.base_currency
  }))

export { checkReference } from "../../folios/PaymentRecords.js"

/** Availability without the hold itself, under the room type's lock (the one holds take). */
export const checkAvailability = (
  sql: SqlClient.SqlClient,
  inventory: Inventory["Service"],
  propertyId: string,
  row: LockedReservation,
  now: Date
) =>
  Effect.gen(function*() {
    yield* lockStay(sql, propertyId, { roomTypes: [row.room_type_id] }, "reservation")
    const [stock] = yield* inventory.available(propertyId, {
      roomTypeId: row.room_type_id,
      from: row.check_in_date,
      to: row.check_out_date,
      now,
      excludeReservationId: row.id,
      blockId: row.block_id,
      heldOverbooking: row.held_overbooking
    })
    // A live hold keeps the nights it took: a capacity lowered since (a sell limit, an overbooking, a period out
    // of order) never refuses its confirm; only rooms lost to other sales do (`Inventory.roomsToKeep`).
    if ((stock?.availableToKeep ?? 0) < 1) {
      return yield* new NoAvailability({
        message: `The room type is no longer free on every night from ${row.check_in_date} to ${row.check_out_date}`
      })
    }
  })

/** The payment line and row (`PaymentRecords`, the one rule for a reference). */
const payFolio = (
  sql: SqlClient.SqlClient,
  actor: ConfirmActor,
  row: LockedReservation,
  share: PaymentShare,
  now: Date
) =>
  Effect.flatMap(rateToBase(sql, actor.propertyId, row.currency, row.base_currency), (exchangeRate) =>
    recordPayment(sql, {
      propertyId: actor.propertyId,
      reservationId: row.id,
      folioId: row.folio_id,
      reference: share.reference,
      amount: share.amount,
      currency: row.currency,
      exchangeRate,
      booking: share.booking
    }, now))

const recordEarn = (sql: SqlClient.SqlClient, propertyId: string, row: LockedReservation, now: Date) => {
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

/**
 * Every write of a confirm of one reservation: reservation and accommodation confirmed, the payment line and
 * row, the loyalty earn (or skipped earn), the audit row of the assertion, then `reservation.confirmed`.
 */
export const writeConfirm = (
  sql: SqlClient.SqlClient,
  actor: ConfirmActor,
  row: LockedReservation,
  share: PaymentShare,
  now: Date
) =>
  Effect.gen(function*() {
    yield* sql`
      UPDATE reservations SET status = 'confirmed', confirmed_at = ${now}, updated_at = ${now}
      WHERE id = ${row.id}`
    yield* sql`UPDATE accommodations SET status = 'confirmed' WHERE reservation_id = ${row.id}`
    yield* payFolio(sql, actor, row, share, now)
    yield* recordEarn(sql, actor.propertyId, row, now)
    yield* sql`
      INSERT INTO confirm_audit (reservation_id, api_key_id, payment_reference, asserted_amount, asserted_currency,
                                 request_id, created_at)
      VALUES (${row.id}, ${actor.apiKeyId}, ${share.reference}, ${Money.toDb(share.amount)}, ${row.currency},
              ${actor.requestId}, ${now})`
    yield* appendEvent(actor.propertyId, "reservation.confirmed", Subject.reservation(row.id))
  })
