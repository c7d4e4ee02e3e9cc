import { expect, layer } from "@effect/vitest"
import type { PropertyImportResult } from "@hotel/persistence/property/PropertyImport"
import * as Effect from "effect/Effect"
import { confirm, hold, importedHoldBody, importRoomTypes, newGuest } from "../utils/booking.js"
import type { HotelClient } from "../utils/client.js"
import { all, outcomes, overbookedNights } from "../utils/concurrency.js"
import { allEvents } from "../events/feed.js"
import { localDay } from "../utils/stay.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"

// Changes racing other writes of the same reservation, or other changes for the last room, with REAL concurrent
// HTTP requests on Postgres (real clock). Each call ends as its status or its error class; afterwards no night is
// sold beyond its rooms and nothing the loser tried is left half-written.

const patch = (client: HotelClient, id: string, payload: Parameters<HotelClient["reservationChanges"]["change"]>[0]["payload"]) =>
  client.reservationChanges.change({ params: { id }, payload, headers: {}, responseMode: "decoded-and-response" })

/** A call's outcome by its status alone, so calls of different endpoints race in one `all`. */
const settled = <A, E extends { readonly _tag: string }, R>(call: Effect.Effect<readonly [A, { readonly status: number }], E, R>) =>
  call.pipe(Effect.map(([, res]) => [null, res] as const), Effect.mapError((error): { readonly _tag: string } => error))

/** A confirmed (or held) stay of one guest on room type `rt` of the imported property. */
const stay = (api: TestApiService, imported: PropertyImportResult, key: string, rt: string, dates: { check_in: string; check_out: string }, tentative = false) =>
  Effect.gen(function*() {
    const guest = yield* newGuest(api, imported.property_id)
    const held = yield* hold(api, importedHoldBody(imported, rt, guest, dates), { key })
    if (!tentative) yield* confirm(api, held.reservation_id, {}, { key })
    return held
  })

/** The folio's charges and payments as the reservation read shows them. */
const figures = (client: HotelClient, id: string) =>
  Effect.map(client.reservationReads.get({ params: { id } }), (r) => ({ total: r.total, status: r.status, ...r.balances[0] }))

layer(TestApiLive, { excludeTestServices: true })("changes under concurrency", (it) => {
  it.effect("two changes (or a change and a hold) racing for the last room: one wins, the other is 409 no_availability", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 10, S: 1 })
      const client = yield* api.clientFor(key)
      const suite = { room_type_id: imported.room_types["S"], rate_plan_id: imported.rate_plans["BAR-S"] }
      for (const day of ["01", "05", "09", "13", "17"]) {
        const dates = { check_in: `2031-10-${day}`, check_out: `2031-10-${String(Number(day) + 2).padStart(2, "0")}` }
        const a = yield* stay(api, imported, key, "A", dates)
        const b = yield* stay(api, imported, key, "A", dates)
        const results = yield* all([patch(client, a.reservation_id, suite), patch(client, b.reservation_id, suite)])
        expect(outcomes(results)).toEqual({ "200": 1, NoAvailability: 1 })
      }
      // A change and a new hold racing for the last suite: exactly one of them gets it.
      for (const day of ["21", "25"]) {
        const dates = { check_in: `2031-10-${day}`, check_out: `2031-10-${String(Number(day) + 2).padStart(2, "0")}` }
        const a = yield* stay(api, imported, key, "A", dates)
        const guest = yield* newGuest(api, imported.property_id)
        const results = yield* all([
          settled(patch(client, a.reservation_id, suite)),
          settled(client.holds.create({ headers: {}, payload: importedHoldBody(imported, "S", guest, dates), responseMode: "decoded-and-response" }))
        ])
        const tally = outcomes(results)
        expect(tally["NoAvailability"]).toBe(1)
        expect((tally["200"] ?? 0) + (tally["201"] ?? 0)).toBe(1)
      }
      expect(yield* overbookedNights(api.sql, imported.property_id, new Date())).toEqual([])
      const nights = yield* client.availability.availability({ query: { start_date: "2031-10-01", end_date: "2031-10-02", room_type_id: suite.room_type_id } })
      expect(nights.data[0].nights.map((n) => n.available)).toEqual([0, 0])
    }))

  it.effect("a change racing a hold for the last room of a night it does not hold (its own nights over a lowered sell limit): one wins, never both", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 2 })
      const client = yield* api.clientFor(key)
      const a = imported.room_types.A
      const winners: Array<string> = []
      for (const day of [1, 5, 9, 13, 17, 21]) {
        const date = (offset: number) => `2032-02-${String(day + offset).padStart(2, "0")}`
        // Both rooms taken on its two nights, which now sell one; the night after has one room left.
        const mine = yield* stay(api, imported, key, "A", { check_in: date(0), check_out: date(2) })
        yield* stay(api, imported, key, "A", { check_in: date(0), check_out: date(2) })
        yield* client.inventory.putControls({ headers: {}, params: { id: a }, payload: { start_date: date(0), end_date: date(2), sell_limit: 1 } })
        yield* stay(api, imported, key, "A", { check_in: date(2), check_out: date(3) })
        const guest = yield* newGuest(api, imported.property_id)
        const results = yield* all([
          settled(patch(client, mine.reservation_id, { check_out: date(3) })),
          settled(client.holds.create({ headers: {}, payload: importedHoldBody(imported, "A", guest, { check_in: date(2), check_out: date(3) }), responseMode: "decoded-and-response" }))
        ])
        const tally = outcomes(results)
        expect(tally["NoAvailability"]).toBe(1)
        expect((tally["200"] ?? 0) + (tally["201"] ?? 0)).toBe(1)
        winners.push(tally["200"] === 1 ? "change" : "hold")
        const after = yield* client.reservationReads.get({ params: { id: mine.reservation_id } })
        expect(after.check_out_date).toBe(tally["200"] === 1 ? date(3) : date(2))
        const nights = yield* client.availability.availability({ query: { start_date: date(0), end_date: date(2), room_type_id: a } })
        expect(nights.data[0].nights.map((n) => [n.taken, n.available])).toEqual([[2, 0], [2, 0], [2, 0]])
      }
      expect(winners).toHaveLength(6)
      expect(yield* overbookedNights(api.sql, imported.property_id, new Date())).toEqual([])
    }))

  it.effect("a change racing a confirm of the same hold: both apply, in one order, and the payment is never lost", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 10 })
      const client = yield* api.clientFor(key)
      for (let i = 0; i < 5; i++) {
        const held = yield* stay(api, imported, key, "A", { check_in: "2031-11-01", check_out: "2031-11-03" }, true)
        const results = yield* all([
          settled(client.holds.confirm({ headers: {}, params: { id: held.reservation_id }, payload: { payment_reference: `race-${held.reservation_id}` }, responseMode: "decoded-and-response" })),
          settled(patch(client, held.reservation_id, { check_out: "2031-11-04" }))
        ])
        expect(outcomes(results)).toEqual({ "200": 2 })
        const after = yield* figures(client, held.reservation_id)
        expect(after).toMatchObject({ status: "confirmed", total: "324.00", charges: "324.00" })
        // The confirm paid what was due when it ran: the old total (216.00, then 108.00 is owed) or the new one.
        expect([["216.00", "108.00"], ["324.00", "0.00"]]).toContainEqual([after.payments, after.balance])
      }
    }))

  it.effect("a change racing a cancel: never interleaved; the old and the new nights end up free", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { S: 1 })
      const client = yield* api.clientFor(key)
      for (const day of ["01", "10", "20"]) {
        const check_in = `2031-12-${day}`
        const booked = yield* stay(api, imported, key, "S", { check_in, check_out: `2031-12-${String(Number(day) + 2).padStart(2, "0")}` })
        const results = yield* all([
          settled(client.reservationActions.cancel({ params: { id: booked.reservation_id }, payload: {}, headers: {}, responseMode: "decoded-and-response" })),
          settled(patch(client, booked.reservation_id, { check_out: `2031-12-${String(Number(day) + 4).padStart(2, "0")}` }))
        ])
        const tally = outcomes(results)
        expect([{ "200": 2 }, { "200": 1, NotModifiable: 1 }]).toContainEqual(tally)
        expect((yield* figures(client, booked.reservation_id)).status).toBe("cancelled")
        // The suite is free on every night the stay held before or after the change.
        yield* stay(api, imported, key, "S", { check_in, check_out: `2031-12-${String(Number(day) + 4).padStart(2, "0")}` })
      }
      expect(yield* overbookedNights(api.sql, imported.property_id, new Date())).toEqual([])
    }))

  it.effect("a shortening racing a cancel: the refund is paid once, whichever runs first", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 10 })
      const client = yield* api.clientFor(key)
      const amounts = (lines: ReadonlyArray<{ readonly kind: string; readonly amount: string }>, kind: string) =>
        lines.filter((l) => l.kind === kind).reduce((sum, l) => sum + Math.round(Number(l.amount) * 100), 0)
      for (const day of ["01", "10", "20"]) {
        // Three nights at 108.00, long before arrival: the 100% tier, so 324.00 is refunded in all, once.
        const booked = yield* stay(api, imported, key, "A", { check_in: `2032-02-${day}`, check_out: `2032-02-${String(Number(day) + 3).padStart(2, "0")}` })
        const results = yield* all([
          settled(patch(client, booked.reservation_id, { check_out: `2032-02-${String(Number(day) + 1).padStart(2, "0")}` })),
          settled(client.reservationActions.cancel({ params: { id: booked.reservation_id }, payload: {}, headers: {}, responseMode: "decoded-and-response" }))
        ])
        expect([{ "200": 2 }, { "200": 1, NotModifiable: 1 }]).toContainEqual(outcomes(results))
        const folio = yield* client.folios.get({ params: { id: booked.folio_id } })
        expect([amounts(folio.lines, "payment"), amounts(folio.lines, "refund")]).toEqual([32400, 32400])
        expect(folio.balance).toBe("0.00")
        // What the change and the cancel announced owing back adds up to the same, once.
        const announced = (yield* allEvents(api, key, { types: "reservation.changed,reservation.cancelled" }))
          .filter((e) => e.data["id"] === booked.reservation_id)
          .reduce((sum, e) => sum + Number(e.data["refund_due_minor"]), 0)
        expect(announced).toBe(32400)
      }
    }))

  it.effect("a change racing a check-in: the party changes only before the guest is in; payments racing a change all land", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 10 })
      const client = yield* api.clientFor(key)
      const dates = { check_in: localDay(0), check_out: localDay(2) }
      for (let i = 0; i < 3; i++) {
        const booked = yield* stay(api, imported, key, "A", dates)
        const results = yield* all([
          settled(client.stay.checkIn({ headers: {}, params: { id: booked.reservation_id }, payload: {}, responseMode: "decoded-and-response" })),
          settled(patch(client, booked.reservation_id, { adults: 2 }))
        ])
        const tally = outcomes(results)
        expect([{ "200": 2 }, { "200": 1, NotModifiable: 1 }]).toContainEqual(tally)
        const after = yield* client.reservationReads.get({ params: { id: booked.reservation_id } })
        expect(after.status).toBe("checked_in")
        expect(after.adults).toBe(tally["200"] === 2 ? 2 : 1)
      }
      const booked = yield* stay(api, imported, key, "A", { check_in: "2032-01-10", check_out: "2032-01-12" })
      const payments = Array.from({ length: 6 }, (_, n) =>
        settled(client.payments.create({ headers: {}, params: { id: booked.reservation_id }, payload: { payment_reference: `p-${booked.reservation_id}-${n}`, amount: "10.00", currency: "EUR" }, responseMode: "decoded-and-response" })))
      const changes = ["2032-01-13", "2032-01-14"].map((check_out) => settled(patch(client, booked.reservation_id, { check_out })))
      expect(outcomes(yield* all([...payments, ...changes]))).toEqual({ "201": 6, "200": 2 })
      expect((yield* figures(client, booked.reservation_id)).payments).toBe("276.00")
    }))
})
