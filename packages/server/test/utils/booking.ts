import type * as SqlClient from "effect/sql/SqlClient"
import type { Booking } from "@hotel/domain"
import type { HoldConfirmed, HoldCreated } from "@hotel/api/booking/Api"
import type { PropertyImportResult } from "@hotel/persistence/property/PropertyImport"
import * as Effect from "effect/Effect"
import { clientOf } from "./client.js"
import type { ApiResponse, RequestOptions } from "./http.js"
import { insertGuest } from "./sqlSeed.js"
import type { TestApiService } from "./TestServer.js"

// Builders and readers shared by the booking-flow tests (holds, confirm, cancel, expiry, concurrency).

export { importedHoldBody, importRoomTypes, planWithInclusions, uniqueCode } from "./propertySetup.js"

export interface HoldBody {
  readonly [field: string]: unknown
}

/** The body `POST /holds` takes, typed by the contract (`HoldBody` is for deliberately malformed ones). */
export type HoldRequest = typeof Booking.HoldCreate.Type
export type HoldResponse = typeof HoldCreated.Type
export type ConfirmResponse = typeof HoldConfirmed.Type

/** A new guest of the fixture property (or of `propertyId`). */
export const newGuest = (api: TestApiService, propertyId?: string) =>
  insertGuest(api.sql, propertyId ?? api.property.property_id)

/**
 * A body for `POST /holds`: the fixture's DBL on BAR-DBL (of `api.property`, or of another imported fixture
 * `property`), 2 adults, three nights in 2031; `over` replaces fields.
 */
export const holdBody = (
  api: TestApiService,
  guestId: string,
  over: Partial<HoldRequest> = {},
  property: PropertyImportResult = api.property
): HoldRequest => ({
  room_type_id: property.room_types["DBL"],
  rate_plan_id: property.rate_plans["BAR-DBL"],
  check_in: "2031-03-10",
  check_out: "2031-03-13",
  guest_id: guestId,
  adults: 2,
  ...over
})

/** The fixture's only suite (STE, one room) on BAR-STE: the room type a single hold sells out. */
export const lastSuite = (api: TestApiService) => ({
  room_type_id: api.property.room_types["STE"],
  rate_plan_id: api.property.rate_plans["BAR-STE"]
})

/** Raw `POST /holds`: for deliberately malformed bodies and the exact wire; well-formed holds use `hold`. */
export const postHold = (api: TestApiService, body: HoldBody, options?: RequestOptions) =>
  api.post("/holds", body, options)

/** A hold that must succeed (201); returns its body. */
export const hold = (api: TestApiService, body: HoldRequest, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.holds.create({ headers: {}, payload: body }))

/** Raw `POST /holds/{id}/confirm`: for malformed bodies or ids and the exact wire; otherwise `confirm`. */
export const postConfirm = (api: TestApiService, id: string, body: Record<string, unknown>, options?: RequestOptions) =>
  api.post(`/holds/${id}/confirm`, body, options)

/** A confirm's body: a fresh payment reference unless `body` gives one (a hold's and a booking's alike). */
export const confirmBody = (body: Partial<typeof Booking.HoldConfirm.Type> = {}) => ({
  payment_reference: `pay_${globalThis.crypto.randomUUID()}`,
  ...body
})

/** A confirm that must succeed (200) with a fresh payment reference unless `body` gives one; returns its body. */
export const confirm = (
  api: TestApiService,
  id: string,
  body: Partial<typeof Booking.HoldConfirm.Type> = {},
  options?: RequestOptions
) =>
  Effect.flatMap(clientOf(api, options), (client) =>
    client.holds.confirm({ headers: {}, params: { id }, payload: confirmBody(body) }))

/** Raw `POST /reservations/{id}/cancel`: for malformed bodies or ids and the exact wire; otherwise `cancel`. */
export const postCancel = (api: TestApiService, id: string, body?: unknown, options?: RequestOptions) =>
  api.post(`/reservations/${id}/cancel`, body, options)

/** A cancel that must succeed (200); returns its body. */
export const cancel = (
  api: TestApiService,
  id: string,
  body: typeof Booking.ReservationCancel.Type = {},
  options?: RequestOptions
) => Effect.flatMap(clientOf(api, options), (client) => client.reservationActions.cancel({ headers: {}, params: { id }, payload: body }))

/** `GET /reservations/{id}`, which must succeed (200). */
export const getReservation = (api: TestApiService, id: string, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.reservationReads.get({ params: { id } }))

export const statusOf = (res: ApiResponse) => res.status

/** Rows of a table (optionally with a WHERE clause on a reservation id column). */
export const count = (sql: SqlClient.SqlClient, table: string, where?: { column: string; value: string }) =>
  (where === undefined
    ? sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`
    : sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql(table)} WHERE ${sql(where.column)} = ${where.value}`)
    .pipe(Effect.orDie, Effect.map((rows) => rows[0]?.n ?? 0))

/** Rows of every table a hold writes, for "nothing half-written" checks. */
export const bookingRows = (sql: SqlClient.SqlClient) =>
  Effect.all({
    reservations: count(sql, "reservations"),
    folios: count(sql, "folios"),
    folio_lines: count(sql, "folio_lines"),
    accommodations: count(sql, "accommodations"),
    entitlements: count(sql, "entitlements"),
    reservation_add_ons: count(sql, "reservation_add_ons"),
    payments: count(sql, "payments")
  })

export interface FolioLine {
  readonly kind: string
  readonly description: string
  readonly amount: string
  readonly currency: string
  readonly exchange_rate: string | null
  readonly revenue_category: string | null
}

export const folioLines = (sql: SqlClient.SqlClient, folioId: string) =>
  sql<FolioLine>`
    SELECT kind, description, amount::text AS amount, currency, exchange_rate::text AS exchange_rate, revenue_category
    FROM folio_lines WHERE folio_id = ${folioId} ORDER BY position`.pipe(Effect.orDie)
