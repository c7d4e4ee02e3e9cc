import type * as SqlClient from "effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import type { PropertyImportResult } from "@hotel/persistence/property/PropertyImport"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { hold, type HoldRequest, importedHoldBody, importRoomTypes, newGuest, uniqueCode } from "../utils/booking.js"
import { type HotelClient, makeClient } from "../utils/client.js"
import { secondServer } from "../utils/processes.js"
import { insertPlan, insertPromoCode } from "../utils/sqlSeed.js"
import { all, outcomes, overbookedNights, successes } from "../utils/concurrency.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// Race safety of the booking flow with REAL concurrent HTTP requests (availability never goes
// below zero whatever the concurrency and however many server processes share the database). The calls go
// through the typed client, all in flight at once; each ends as its success status or its decoded error class.

/** Rows a property's holds wrote: reservations, their folios, lines and legs. */
const propertyRows = (sql: SqlClient.SqlClient, propertyId: string) =>
  sql<{ reservations: number; folios: number; lines: number; legs: number }>`
    SELECT (SELECT count(*) FROM reservations WHERE property_id = ${propertyId})::int AS reservations,
           (SELECT count(*) FROM folios WHERE property_id = ${propertyId})::int AS folios,
           (SELECT count(*) FROM folio_lines l JOIN folios f ON f.id = l.folio_id
             WHERE f.property_id = ${propertyId})::int AS lines,
           (SELECT count(*) FROM accommodations a JOIN reservations r ON r.id = a.reservation_id
             WHERE r.property_id = ${propertyId})::int AS legs`.pipe(Effect.orDie, Effect.map((rows) => rows[0]))

const body = (imported: PropertyImportResult, rt: string, guest: string) =>
  importedHoldBody(imported, rt, guest, { check_in: "2031-09-01", check_out: "2031-09-03", adults: 2 })

const postHold = (client: HotelClient, payload: HoldRequest) => client.holds.create({ headers: {}, payload, responseMode: "decoded-and-response" })

const postConfirm = (client: HotelClient, id: string, payment_reference: string) =>
  client.holds.confirm({ headers: {}, params: { id }, payload: { payment_reference }, responseMode: "decoded-and-response" })

layer(TestApiLive, { excludeTestServices: true })("booking under concurrency", (it) => {
  it.effect("30 simultaneous holds for the last 3 rooms: exactly 3 succeed, the rest 409 no_availability", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key, guest } = yield* importRoomTypes(api, { A: 5 })
      const client = yield* api.clientFor(key)
      yield* hold(api, body(imported, "A", guest), { key })
      yield* hold(api, body(imported, "A", guest), { key })
      const responses = yield* all(Array.from({ length: 30 }, () => postHold(client, body(imported, "A", guest))))
      expect(outcomes(responses)).toEqual({ "201": 3, NoAvailability: 27 })
      expect(yield* overbookedNights(api.sql, imported.property_id, new Date())).toEqual([])
      // Nothing half-written by the 27 failures: 5 holds of 2 nights, each 2 room lines and 2 taxes.
      expect(yield* propertyRows(api.sql, imported.property_id)).toEqual({ reservations: 5, folios: 5, lines: 20, legs: 5 })
      const rates = yield* client.availability.availability({ query: { start_date: "2031-09-01", end_date: "2031-09-02" } })
      expect(rates.data[0].nights.map((n) => n.available)).toEqual([0, 0])
    }))

  it.effect("holds on many room types in parallel: each room type sells exactly its rooms", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const types = ["A", "B", "C", "D", "E", "F", "G", "H"]
      const { imported, key } = yield* importRoomTypes(api, Object.fromEntries(types.map((t) => [t, 2])))
      const client = yield* api.clientFor(key)
      // One guest per request: a guest may have at most 10 live holds.
      const guests = yield* Effect.forEach(types.flatMap(() => [0, 1, 2, 3]), () => newGuest(api, imported.property_id))
      const requests = types.flatMap((t, ti) =>
        [0, 1, 2, 3].map((j) => ({ t, payload: body(imported, t, guests[ti * 4 + j]) })))
      const responses = yield* all(requests.map(({ payload }) => postHold(client, payload)))
      expect(outcomes(responses)).toEqual({ "201": 16, NoAvailability: 16 })
      for (const t of types) {
        const won = responses.filter((res, i) => requests[i].t === t && Result.isSuccess(res))
        expect(won, t).toHaveLength(2)
      }
      expect(yield* overbookedNights(api.sql, imported.property_id, new Date())).toEqual([])
    }))

  it.effect("32 concurrent holds on one room type all complete, without deadlock", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 40 })
      const client = yield* api.clientFor(key)
      const guests = yield* Effect.forEach(Array.from({ length: 32 }), () => newGuest(api, imported.property_id))
      const started = Date.now()
      const responses = yield* all(Array.from({ length: 32 }, (_, i) =>
        postHold(client, {
          ...body(imported, "A", guests[i]),
          // Mixed stays, so the same lock covers overlapping and disjoint ranges.
          check_in: `2031-09-${String(1 + (i % 5)).padStart(2, "0")}`,
          check_out: `2031-09-${String(2 + (i % 5) + (i % 4)).padStart(2, "0")}`
        })))
      expect(outcomes(responses)).toEqual({ "201": 32 })
      expect(Date.now() - started).toBeLessThan(30_000)
      const codes = successes(responses).map((held) => held.confirmation_code)
      expect(new Set(codes).size).toBe(32)
    }))

  it.effect("10 simultaneous confirms of one hold: one payment, nine already_confirmed", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key, guest } = yield* importRoomTypes(api, { A: 3 })
      const client = yield* api.clientFor(key)
      const held = yield* hold(api, body(imported, "A", guest), { key })
      const responses = yield* all(Array.from({ length: 10 }, (_, i) =>
        // The same reference for half of them, a fresh one for the others.
        postConfirm(client, held.reservation_id, i % 2 === 0 ? "pay-race" : `pay-race-${i}`)))
      expect(outcomes(responses)).toEqual({ "200": 10 })
      const flags = successes(responses).map((done) => done.already_confirmed)
      expect(flags.filter((f) => !f)).toHaveLength(1)
      const counts = yield* api.sql<{ payments: number; lines: number; audits: number; skipped: number }>`
        SELECT (SELECT count(*) FROM payments WHERE reservation_id = ${held.reservation_id})::int AS payments,
               (SELECT count(*) FROM folio_lines WHERE folio_id = ${held.folio_id} AND kind = 'payment')::int AS lines,
               (SELECT count(*) FROM confirm_audit WHERE reservation_id = ${held.reservation_id})::int AS audits,
               (SELECT count(*) FROM loyalty_skipped_earns WHERE reservation_id = ${held.reservation_id})::int AS skipped`
        .pipe(Effect.orDie)
      expect(counts).toEqual([{ payments: 1, lines: 1, audits: 1, skipped: 1 }])
    }))

  it.effect("one payment reference raced over 10 holds: one confirms, nine are payment_reference_reused", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key, guest } = yield* importRoomTypes(api, { A: 10 })
      const client = yield* api.clientFor(key)
      const holds = yield* Effect.forEach(Array.from({ length: 10 }), () => hold(api, body(imported, "A", guest), { key }))
      const reference = `pay-${uniqueCode()}`
      const responses = yield* all(holds.map((h) => postConfirm(client, h.reservation_id, reference)))
      expect(outcomes(responses)).toEqual({ "200": 1, PaymentReferenceReused: 9 })
      const [{ n }] = yield* api.sql<{ n: number }>`
        SELECT count(*)::int AS n FROM payments WHERE property_id = ${imported.property_id}`.pipe(Effect.orDie)
      expect(n).toBe(1)
    }))

  it.effect("a promo code with max_redemptions 1 under 10 simultaneous holds is redeemed once", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 20 })
      const plan = yield* insertPlan(api.sql, imported.property_id, imported.room_types["A"], {
        requires_promo_code: true,
        kind: "promotion"
      })
      const code = yield* insertPromoCode(api.sql, imported.property_id, plan, { code: "ONLYONE", max_redemptions: 1 })
      const guests = yield* Effect.forEach(Array.from({ length: 10 }), () => newGuest(api, imported.property_id))
      const client = yield* api.clientFor(key)
      const responses = yield* all(guests.map((guest) =>
        postHold(client, { ...body(imported, "A", guest), rate_plan_id: plan, promo_code: "onlyone" })
      ))
      expect(outcomes(responses)).toEqual({ "201": 1, RatePlanNotFound: 9 })
      const [{ n }] = yield* api.sql<{ n: number }>`
        SELECT count(*)::int AS n FROM reservations WHERE promo_code_id = ${code}`.pipe(Effect.orDie)
      expect(n).toBe(1)
      expect((yield* propertyRows(api.sql, imported.property_id)).reservations).toBe(1)
    }))

  it.effect("two server processes on one database: 30 holds for the last 3 rooms, exactly 3 succeed", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key, guest } = yield* importRoomTypes(api, { A: 4 })
      yield* hold(api, body(imported, "A", guest), { key })
      const other = yield* secondServer
      const [here, there] = [yield* api.clientFor(key), yield* makeClient(other, key)]
      const responses = yield* all(Array.from({ length: 30 }, (_, i) =>
        postHold(i % 2 === 0 ? here : there, body(imported, "A", guest))
      ))
      expect(outcomes(responses)).toEqual({ "201": 3, NoAvailability: 27 })
      expect(yield* overbookedNights(api.sql, imported.property_id, new Date())).toEqual([])
      expect(yield* propertyRows(api.sql, imported.property_id)).toEqual({ reservations: 4, folios: 4, lines: 16, legs: 4 })
    })), 120_000)
})
