// The rows a hold writes, in the caller's transaction: the reservation (with a fresh confirmation code), its folio
// with the quote's lines and its accommodation in one statement, then its entitlements and add-ons. The caller
// appends the events (`holdEvents` for a hold of its own).
import type * as SqlClient from "@effect/sql/SqlClient"
import { Booking, Money, type Pricing } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { insertedAccommodation, insertedReservation } from "../stayRows.js"
import { readOf, recordColumns, type RecordRow, type ReservationRead } from "../ReservationColumns.js"
import type { PendingEvent, StayNights } from "../../events/EventOutbox.js"
import { stayChangeEvents } from "../StayEvents.js"
import type { HoldActor, HoldCreated, HoldRequest } from "./requests.js"

/** How many fresh confirmation codes a hold tries before giving up (a collision is ~1 in 10^12). */
const codeAttempts = 5

const newConfirmationCode = Effect.sync(() =>
  Booking.confirmationCodeFrom(globalThis.crypto.getRandomValues(new Uint8Array(Booking.codeLength)))
)

/** The booking a room belongs to and its place in the booking's `rooms`. */
export interface BookingSlot {
  readonly id: string
  readonly position: number
}

/** What a hold writes on its reservation row besides the stay's own columns (`Booking.StayRecord`). */
export interface ReservationFields {
  readonly record: Booking.StayRecord
  /** Null for a hold of `POST /holds`. */
  readonly booking: BookingSlot | null
  readonly holdExpiresAt: Date
  readonly now: Date
}

/**
 * The reservation, its folio with the quote's lines (in order, every one in the stay currency at the frozen
 * rate) and its one accommodation leg (a room is assigned at check-in), in one statement: the rows are
 * chained by data-modifying CTEs, so the hold's transaction makes one round trip for them. The statement
 * answers the reservation as `ReservationQueries.findRecord` reads it (the CTEs' RETURNING, as a read at `now`
 * would see them), so the hold's event is rendered without a read under the room type's lock. A confirmation
 * code already taken inserts nothing and the statement is retried with a fresh code.
 */
const insertReservation = (
  sql: SqlClient.SqlClient,
  actor: HoldActor,
  request: HoldRequest,
  fields: ReservationFields
) =>
  Effect.gen(function*() {
    const { now, record } = fields
    const { quote } = record
    const rate = quote.exchangeRate === null ? null : Money.toDb(quote.exchangeRate)
    const lines = quote.lines
    const accommodation = insertedAccommodation(sql, record, [])
    for (let attempt = 0; attempt < codeAttempts; attempt++) {
      const code = yield* newConfirmationCode
      const reservation = insertedReservation(sql, record, [
        ["property_id", sql`${actor.propertyId}`],
        ["confirmation_code", sql`${code}`],
        ["guest_id", sql`${request.guestId}`],
        ["status", sql.literal("'tentative'")],
        ["bed_config", sql`${request.bedConfig}`],
        ["booking_source", sql`${actor.salesContext}`],
        ["special_notes", sql`${request.specialNotes}`],
        ["api_key_id", sql`${actor.apiKeyId}`],
        ["hold_expires_at", sql`${fields.holdExpiresAt}`],
        ["booking_id", sql`${fields.booking?.id ?? null}::uuid`],
        ["booking_position", sql`${fields.booking?.position ?? null}::int`],
        ["created_at", sql`${now}`],
        ["updated_at", sql`${now}`]
      ])
      const rows = yield* sql<RecordRow>`
        WITH r AS (
          INSERT INTO reservations (${reservation.names}) VALUES (${reservation.values})
          ON CONFLICT (confirmation_code) DO NOTHING
          RETURNING *
        ), f AS (
          INSERT INTO folios (property_id, reservation_id, currency, status, created_at)
          SELECT ${actor.propertyId}, r.id, ${quote.currency}, 'open', ${now} FROM r
          RETURNING *
        ), l AS (
          INSERT INTO folio_lines (folio_id, position, kind, description, amount, currency, exchange_rate,
                                   revenue_category, service_id, quantity, night, created_at)
          SELECT f.id, x.position, x.kind, x.description, x.amount, ${quote.currency}, ${rate}::numeric,
                 x.revenue_category, x.service_id, x.quantity, x.night, ${now}
          FROM f, unnest(
            ${lines.map((_, position) => position)}::integer[], ${lines.map((line) => line.kind)}::text[],
            ${lines.map((line) => line.description)}::text[], ${lines.map((line) => Money.toDb(line.amount))}::numeric[],
            ${lines.map((line) => line.revenueCategory)}::text[], ${lines.map((line) => line.serviceId ?? null)}::uuid[],
            ${lines.map((line) => line.quantity ?? null)}::integer[], ${lines.map((line) => line.date ?? null)}::date[]
          ) AS x(position, kind, description, amount, revenue_category, service_id, quantity, night)
          RETURNING *
        ), a AS (
          INSERT INTO accommodations (reservation_id, room_id, status, ${accommodation.names})
          SELECT r.id, NULL, 'tentative', ${accommodation.values}
          FROM r
          RETURNING *
        )
        SELECT ${recordColumns(sql, now, { accommodations: sql`a`, lines: sql`l` })}
        FROM r JOIN room_types rt ON rt.id = r.room_type_id JOIN f ON f.reservation_id = r.id`
      const row = rows[0]
      if (row !== undefined) return { id: row.id, folioId: row.folio_id, code, read: readOf(row) }
    }
    return yield* Effect.dieMessage(`no free confirmation code after ${codeAttempts} attempts`)
  })

/** The entitlements and add-ons of a hold, when it has any (one multi-row INSERT each). */
const insertDetails = (
  sql: SqlClient.SqlClient,
  reservationId: string,
  request: HoldRequest,
  quote: Pricing.Quote,
  modifierValues: ReadonlyArray<Readonly<Record<string, unknown>>>,
  now: Date
) =>
  Effect.gen(function*() {
    if (quote.entitlements.length > 0) {
      yield* sql`INSERT INTO entitlements ${
        sql.insert(quote.entitlements.map((entitlement, position) => ({
          reservation_id: reservationId,
          label: entitlement.label,
          inclusion_kind: entitlement.inclusionKind,
          revenue_category: entitlement.revenueCategory,
          service_item_id: entitlement.serviceItemId,
          currency: entitlement.currency,
          quantity: entitlement.quantity,
          allowance: Money.toDb(entitlement.allowance),
          position
        })))
      }`
    }
    if (request.addOns.length > 0) {
      yield* sql`INSERT INTO reservation_add_ons ${
        sql.insert(request.addOns.map((addOn, position) => ({
          reservation_id: reservationId,
          position,
          service_id: addOn.serviceId,
          quantity: addOn.quantity,
          modifier_values: JSON.stringify(modifierValues[position] ?? {}),
          created_at: now
        })))
      }`
    }
  })

/** A hold as written: what `POST /holds` answers, and the reservation as read for its event. */
export interface PlacedHold {
  readonly created: HoldCreated
  readonly read: ReservationRead
  readonly nights: StayNights
}

/** The hold's rows; the events are the caller's. */
export const writeHold = (
  sql: SqlClient.SqlClient,
  actor: HoldActor,
  request: HoldRequest,
  fields: ReservationFields,
  modifierValues: ReadonlyArray<Readonly<Record<string, unknown>>>
) =>
  Effect.gen(function*() {
    const reservation = yield* insertReservation(sql, actor, request, fields)
    yield* insertDetails(sql, reservation.id, request, fields.record.quote, modifierValues, fields.now)
    const placed: PlacedHold = {
      created: {
        reservationId: reservation.id,
        folioId: reservation.folioId,
        confirmationCode: reservation.code,
        holdExpiresAt: fields.holdExpiresAt,
        total: fields.record.quote.total,
        currency: fields.record.quote.currency
      },
      read: reservation.read,
      nights: { roomTypeId: request.roomTypeId, checkIn: request.checkIn, checkOut: request.checkOut }
    }
    return placed
  })

/** The events of holds written together (a hold, or a booking's rooms): see ../StayEvents.ts. */
export const holdEvents = (placed: ReadonlyArray<PlacedHold>): ReadonlyArray<PendingEvent> =>
  stayChangeEvents("reservation.held", placed.map((hold) => ({
    reservation: { id: hold.created.reservationId, read: hold.read },
    nights: hold.nights
  })))
