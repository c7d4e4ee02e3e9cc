import { expect } from "@effect/vitest"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { PropertyImportResult } from "@hotel/persistence/PropertyImport"
import * as Effect from "effect/Effect"
import type { ApiResponse, RequestOptions } from "./http.js"
import { insertGuest } from "./sqlSeed.js"
import type { TestApiService } from "./TestServer.js"

// Builders and readers shared by the booking-flow tests (holds, confirm, cancel, expiry, concurrency).

export { importedHoldBody, importRoomTypes, planWithInclusions, uniqueCode } from "./propertySetup.js"

export interface HoldBody {
  readonly [field: string]: unknown
}

export interface HoldResponse {
  readonly reservation_id: string
  readonly folio_id: string
  readonly confirmation_code: string
  readonly hold_expires_at: string
  readonly total: string
  readonly currency: string
  readonly status: string
}

export interface ConfirmResponse {
  readonly reservation_id: string
  readonly status: string
  readonly check_in_date: string
  readonly check_out_date: string
  readonly currency: string
  readonly folio_balance: string | null
  readonly balances: ReadonlyArray<{ currency: string; charges: string; payments: string; balance: string }>
  readonly already_confirmed: boolean
}

export interface ReservationWire {
  readonly id: string
  readonly status: string
  readonly guest_id: string
  readonly check_in_date: string
  readonly check_out_date: string
  readonly room_type_id: string
  readonly nightly_rate: string
  readonly currency: string
  readonly folio_balance: string | null
  readonly balances: ReadonlyArray<{ currency: string; charges: string; payments: string; balance: string }>
  readonly confirmation_code: string
  readonly adults: number
  readonly children: number
  readonly child_ages: ReadonlyArray<number> | null
  readonly number_of_guests: number
  readonly bed_config: string | null
  readonly booking_source: string
  readonly special_notes: string | null
  readonly promo_code: string | null
  readonly total: string
  readonly hold_expires_at: string | null
  readonly cancellation_reason: string | null
  readonly folio_id: string
  readonly accommodations: ReadonlyArray<{
    readonly id: string
    readonly room_id: string | null
    readonly room_type_id: string
    readonly check_in_date: string
    readonly check_out_date: string
    readonly status: string
    readonly nightly_rate: string
  }>
}

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
  over: HoldBody = {},
  property: PropertyImportResult = api.property
): HoldBody => ({
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

export const postHold = (api: TestApiService, body: HoldBody, options?: RequestOptions) =>
  api.post("/holds", body, options)

/** A hold that must succeed (201); returns its body. */
export const hold = (api: TestApiService, body: HoldBody, options?: RequestOptions) =>
  Effect.map(postHold(api, body, options), (res) => {
    expect(res.status, res.text).toBe(201)
    return res.json<HoldResponse>()
  })

export const postConfirm = (api: TestApiService, id: string, body: Record<string, unknown>, options?: RequestOptions) =>
  api.post(`/holds/${id}/confirm`, body, options)

/** A confirm that must succeed (200); returns its body. */
export const confirm = (api: TestApiService, id: string, body: Record<string, unknown> = {}, options?: RequestOptions) =>
  Effect.map(
    postConfirm(api, id, { payment_reference: `pay_${globalThis.crypto.randomUUID()}`, ...body }, options),
    (res) => {
      expect(res.status, res.text).toBe(200)
      return res.json<ConfirmResponse>()
    }
  )

export interface CancelResponse {
  readonly reservation_id: string
  readonly status: string
  readonly refund_due_minor: number
}

export const postCancel = (api: TestApiService, id: string, body?: unknown, options?: RequestOptions) =>
  api.post(`/reservations/${id}/cancel`, body, options)

/** A cancel that must succeed (200); returns its body. */
export const cancel = (api: TestApiService, id: string, body?: unknown, options?: RequestOptions) =>
  Effect.map(postCancel(api, id, body, options), (res) => {
    expect(res.status, res.text).toBe(200)
    return res.json<CancelResponse>()
  })

export const getReservation = (api: TestApiService, id: string, options?: RequestOptions) =>
  Effect.map(api.get(`/reservations/${id}`, options), (res) => {
    expect(res.status, res.text).toBe(200)
    return res.json<ReservationWire>()
  })

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
