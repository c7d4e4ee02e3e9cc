// The rows a hold writes, in the caller's transaction: the reservation (with a fresh confirmation code), its folio
// with the quote's lines, its accommodation and (for a hold of its own) its events in one statement, then its
// entitlements and add-ons. A booking appends its rooms' events itself (`holdEvents`).
import type * as SqlClient from "effect/sql/SqlClient"
import { Booking, Money, type Pricing } from "@hotel/domain"
import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import { arrayOf } from "../../database/ArrayParameter.js"
import { insertedAccommodation, insertedReservation } from "../stayRows.js"
import type { ReservationRead } from "../ReservationColumns.js"
import { newIds, placedHold } from "./heldRead.js"
import { eventRows, type PendingEvent, type RenderedEvents, type StayNights } from "../../events/EventOutbox.js"
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

/** The reservation's columns a hold writes besides the stay's own (`stayRows.ts`). */
const holdColumns = (
  sql: SqlClient.SqlClient,
  actor: HoldActor,
  request: HoldRequest,
  fields: ReservationFields,
  id: string,
  code: string
) => [
  ["id", sql`${id}::uuid`],
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
  ["created_at", sql`${fields.now}`],
  ["updated_at", sql`${fields.now}`]
] as const

/** A hold's events, rendered from the hold as it will read (`EventOutbox.render`). */
export type RenderHoldEvents = (placed: PlacedHold) => Effect.Effect<RenderedEvents>

/** What a hold's write needs besides its rows: the room type's name as locked and, for its own events, `events`. */
export interface HoldWriting {
  readonly roomTypeName: string
  readonly events?: RenderHoldEvents | undefined
}

/**
 * The reservation, its folio with the quote's lines (in order, every one in the stay currency at the frozen
 * rate), its one accommodation leg (a room is assigned at check-in) and, with `events`, the hold's events and
 * their deliveries, in one statement: the rows are chained by data-modifying CTEs, so the hold's transaction
 * makes one round trip for them under the room type's lock. A confirmation code already taken inserts nothing
 * (the events neither) and the statement is retried with a fresh code.
 */
const insertReservation = (
  sql: SqlClient.SqlClient,
  actor: HoldActor,
  request: HoldRequest,
  fields: ReservationFields,
  roomTypeName: string,
  events: RenderHoldEvents | undefined
) =>
  Effect.gen(function*() {
    const { now, record } = fields
    const { quote } = record
    const rate = quote.exchangeRate === null ? null : Money.toDb(quote.exchangeRate)
    const lines = quote.lines
    const ids = newIds(lines.length)
    const accommodation = insertedAccommodation(sql, record, [["id", sql`${ids.accommodation}::uuid`]])
    for (let attempt = 0; attempt < codeAttempts; attempt++) {
      const code = yield* newConfirmationCode
      const placed = placedHold({ actor, request, fields, ids, code, roomTypeName })
      const rendered = events === undefined ? undefined : yield* events(placed)
      const reservation = insertedReservation(sql, record, holdColumns(sql, actor, request, fields, ids.reservation, code))
      const rows = yield* sql<{ id: string }>`
        WITH r AS (
          INSERT INTO reservations (${reservation.names}) VALUES (${reservation.values})
          ON CONFLICT (confirmation_code) DO NOTHING
          RETURNING id
        ), f AS (
          INSERT INTO folios (id, property_id, reservation_id, currency, status, created_at)
          SELECT ${ids.folio}::uuid, ${actor.propertyId}, r.id, ${quote.currency}, 'open', ${now} FROM r
          RETURNING id
        ), l AS (
          INSERT INTO folio_lines (id, folio_id, position, kind, description, amount, currency, exchange_rate,
                                   revenue_category, service_id, quantity, night, created_at)
          SELECT x.id, f.id, x.position, x.kind, x.description, x.amount, ${quote.currency}, ${rate}::numeric,
                 x.revenue_category, x.service_id, x.quantity, x.night, ${now}
          FROM f, unnest(
            ${ids.lines}::uuid[], ${lines.map((_, position) => position)}::integer[],
            ${lines.map((line) => line.kind)}::text[], ${lines.map((line) => line.description)}::text[],
            ${lines.map((line) => Money.toDb(line.amount))}::numeric[], ${lines.map((line) => line.revenueCategory)}::text[],
            ${arrayOf("uuid", lines.map((line) => line.serviceId ?? null))}::uuid[],
            ${arrayOf("integer", lines.map((line) => line.quantity ?? null))}::integer[],
            ${arrayOf("date", lines.map((line) => line.date ?? null))}::date[]
          ) AS x(id, position, kind, description, amount, revenue_category, service_id, quantity, night)
        ), a AS (
          INSERT INTO accommodations (reservation_id, room_id, status, ${accommodation.names})
          SELECT r.id, NULL, 'tentative', ${accommodation.values}
          FROM r
        )${rendered === undefined ? sql.literal("") : sql`, ${eventRows(sql, rendered, sql.literal("EXISTS (SELECT 1 FROM r)"))}`}
        SELECT id FROM r`
      if (rows.length > 0) return placed
    }
    return yield* Effect.die(new Error(`no free confirmation code after ${codeAttempts} attempts`))
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
    const entitlements = quote.entitlements.map((entitlement, position) => ({
      reservation_id: reservationId,
      label: entitlement.label,
      inclusion_kind: entitlement.inclusionKind,
      revenue_category: entitlement.revenueCategory,
      service_item_id: entitlement.serviceItemId,
      currency: entitlement.currency,
      quantity: entitlement.quantity,
      allowance: Money.toDb(entitlement.allowance),
      position
    }))
    if (Arr.isArrayNonEmpty(entitlements)) yield* sql`INSERT INTO entitlements ${sql.insert(entitlements)}`
    const addOns = request.addOns.map((addOn, position) => ({
      reservation_id: reservationId,
      position,
      service_id: addOn.serviceId,
      quantity: addOn.quantity,
      modifier_values: JSON.stringify(modifierValues[position] ?? {}),
      created_at: now
    }))
    if (Arr.isArrayNonEmpty(addOns)) yield* sql`INSERT INTO reservation_add_ons ${sql.insert(addOns)}`
  })

/** A hold as written: what `POST /holds` answers, and the reservation as read for its event. */
export interface PlacedHold {
  readonly created: HoldCreated
  readonly read: ReservationRead
  readonly nights: StayNights
}

/**
 * The hold's rows and, with `events`, its events in the same statement (a booking appends its rooms' events
 * together instead).
 */
export const writeHold = (
  sql: SqlClient.SqlClient,
  actor: HoldActor,
  request: HoldRequest,
  fields: ReservationFields,
  modifierValues: ReadonlyArray<Readonly<Record<string, unknown>>>,
  written: HoldWriting
) =>
  Effect.gen(function*() {
    const placed = yield* insertReservation(sql, actor, request, fields, written.roomTypeName, written.events)
    yield* insertDetails(sql, placed.created.reservationId, request, fields.record.quote, modifierValues, fields.now)
    return placed
  })

/** The events of holds written together (a hold, or a booking's rooms): see ../StayEvents.ts. */
export const holdEvents = (placed: ReadonlyArray<PlacedHold>): ReadonlyArray<PendingEvent> =>
  stayChangeEvents("reservation.held", placed.map((hold) => ({
    reservation: { id: hold.created.reservationId, read: hold.read },
    nights: hold.nights
  })))
