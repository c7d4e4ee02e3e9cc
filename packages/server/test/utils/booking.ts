import { expect } from "@effect/vitest"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { propertyFile } from "./fixtures.js"
import type { ApiResponse, RequestOptions } from "./http.js"
import { insertGuest } from "./sqlSeed.js"
import type { TestApiService } from "./TestServer.js"

// Builders and readers shared by the booking-flow tests (holds, confirm, cancel, expiry, concurrency).

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

export const uniqueCode = () => `B${globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 10).toUpperCase()}`

/** A new guest of the fixture property (or of `propertyId`). */
export const newGuest = (api: TestApiService, propertyId?: string) =>
  insertGuest(api.sql, propertyId ?? api.property.property_id)

/** A body for `POST /holds`: the fixture's DBL on BAR-DBL, 2 adults, three nights in 2031; `over` replaces fields. */
export const holdBody = (api: TestApiService, guestId: string, over: HoldBody = {}): HoldBody => ({
  room_type_id: api.property.room_types["DBL"],
  rate_plan_id: api.property.rate_plans["BAR-DBL"],
  check_in: "2031-03-10",
  check_out: "2031-03-13",
  guest_id: guestId,
  adults: 2,
  ...over
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

export const postCancel = (api: TestApiService, id: string, body?: unknown, options?: RequestOptions) =>
  api.post(`/reservations/${id}/cancel`, body, options)

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

/**
 * Another property from the fixture file with its room types replaced by `roomTypes` (code → rooms) and one
 * plan per room type (`BAR-<code>`, 100.00 EUR); returns its ids and an all-scopes key.
 */
export const importRoomTypes = (api: TestApiService, roomTypes: Record<string, number>) =>
  Effect.gen(function*() {
    const code = uniqueCode()
    const base = propertyFile(code)
    const entries = Object.entries(roomTypes)
    const file = {
      ...base,
      room_types: entries.map(([rt, rooms]) => ({
        code: rt,
        name: `Room ${rt}`,
        base_occupancy: 2,
        max_occupancy: 3,
        bed_configs: ["king"],
        rooms: Array.from({ length: rooms }, (_, i) => `${rt}-${i + 1}`)
      })),
      rate_plans: entries.map(([rt], i) => ({
        code: `BAR-${rt}`,
        default: i === 0,
        room_type: rt,
        name: `Rate ${rt}`,
        base_price: "100.00",
        active_for_booking_engine: true,
        active_for_channels: true
      }))
    }
    const imported = yield* api.importProperty(file)
    const key = yield* api.createKey({ propertyId: imported.property_id })
    return { imported, key }
  })
