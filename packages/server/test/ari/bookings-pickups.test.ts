import { expect, layer } from "@effect/vitest"
import { RatePlanNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { offer, postAri } from "../utils/ari.js"
import { bookingRows, count, folioLines, hold, importedHoldBody, importRoomTypes, newGuest } from "../utils/booking.js"
import { blockBody, createBlock, getBlock, nightFigures } from "../utils/blocks.js"
import { book, bookingBody, dblRoom, importedRoom, postBooking } from "../utils/bookings.js"
import { expectFailure } from "../utils/client.js"
import { createPlan, expectError } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// The per-night overrides in the two sales beside a hold: each room of `POST /bookings` is priced and checked as
// a hold (the override's price, its restrictions refusing the room), and a block's pickup is priced by the block's
// `price` when it has one, else by the override rule, with the restrictions waived. On the TestClock.

const T0 = Date.parse("2031-04-01T10:00:00Z")
// 2031-05-08 is a Thursday: three nights with the Friday and Saturday overridden.
const stay = { check_in: "2031-05-08", check_out: "2031-05-11" }
const weekend = { start_date: "2031-05-09", end_date: "2031-05-11" }

layer(TestApiLive)("ARI in bookings and pickups", (it) => {
  it.effect("a booking's room on override nights is priced with the override, equal to its quote and to a hold", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const guest = yield* newGuest(api)
      const plain = yield* createPlan(api, { base_price: "100.00" })
      const priced = yield* createPlan(api, { base_price: "100.00" })
      yield* postAri(api, [{ rate_plan_id: priced, ...weekend, price: "155.55" }])
      const quoted = yield* offer(api, priced, stay)
      expect(quoted.nights.map((n) => n.amount)).toEqual(["100.00", "155.55", "155.55"])
      const booked = yield* book(api, bookingBody(guest, [dblRoom(api, { rate_plan_id: priced }), dblRoom(api, { rate_plan_id: plain })], stay))
      expect(booked.reservations.map((r) => r.total)).toEqual([quoted.total, (yield* offer(api, plain, stay)).total])
      const lines = yield* folioLines(api.sql, booked.reservations[0].folio_id)
      expect(lines.map((l) => ({ kind: l.kind, description: l.description, amount: Number(l.amount).toFixed(2) }))).toEqual(quoted.lines)
      const held = yield* hold(api, { ...dblRoom(api, { rate_plan_id: priced }), guest_id: guest, ...stay })
      expect(held.total).toBe(quoted.total)
    }))

  it.effect("a booking's room whose stay an override restricts refuses the booking (404, message naming the room), nothing written", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      // Two rooms a try, three tries: a property of its own with the rooms for them.
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 6 })
      const newPlan = createPlan(api, { room_type_id: imported.room_types.A, base_price: "100.00" }, key)
      const plain = yield* newPlan
      const restrictions = [
        { stop_sell: true, on: { start_date: "2031-05-10", end_date: "2031-05-11" } },
        { closed_to_arrival: true, on: { start_date: "2031-05-08", end_date: "2031-05-09" } },
        { min_stay: 4, on: { start_date: "2031-05-08", end_date: "2031-05-09" } }
      ] as const
      for (const { on, ...field } of restrictions) {
        const plan = yield* newPlan
        const child = yield* createPlan(api, { room_type_id: imported.room_types.A, derived_from_id: plan, derivation_type: "fixed", derivation_value: "1.00" }, key)
        yield* postAri(api, [{ rate_plan_id: plan, ...on, ...field }], { key })
        const rooms = [importedRoom(imported, "A", { rate_plan_id: plain }), importedRoom(imported, "A", { rate_plan_id: plan })]
        const body = bookingBody(guest, rooms, stay)
        const written = Effect.all([bookingRows(api.sql), count(api.sql, "bookings"), count(api.sql, "events")])
        const before = yield* written
        const error = expectError(yield* postBooking(api, body, { key }), 404, "not_found", "rate_plan_not_found")
        expect(error.message, JSON.stringify(field)).toContain("rooms[1]")
        // A plan derived from it passes its rules too.
        const viaChild = bookingBody(guest, [importedRoom(imported, "A", { rate_plan_id: child })], stay)
        expect(expectError(yield* postBooking(api, viaChild, { key }), 404, "not_found", "rate_plan_not_found").message).toContain("rooms[0]")
        expect(yield* written).toEqual(before)
        // The override alone refused it: removed, the same booking is taken.
        const cleared = Object.fromEntries(Object.keys(field).map((name) => [name, null]))
        yield* postAri(api, [{ rate_plan_id: plan, ...on, ...cleared }], { key })
        expect((yield* book(api, body, { key })).reservations).toHaveLength(2)
      }
    }))

  it.effect("a pickup is priced by the block's price when it has one, else by the override; a stop-sell or closed stay does not refuse it", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 6 })
      const plan = imported.rate_plans["BAR-A"]
      // The block covers the first two nights of the stay; the third is outside it.
      const range = { start_date: "2031-05-08", end_date: "2031-05-10" }
      const withPrice = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 2, status: "definite", price: "80.00" }), { key })
      const withoutPrice = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 2, status: "definite" }), { key })
      yield* postAri(api, [
        { rate_plan_id: plan, start_date: "2031-05-08", end_date: "2031-05-11", price: "150.00", stop_sell: true },
        { rate_plan_id: plan, start_date: "2031-05-08", end_date: "2031-05-09", closed_to_arrival: true, min_stay: 5 }
      ], { key })
      const ordinary = importedHoldBody(imported, "A", guest, stay)
      yield* expectFailure(hold(api, ordinary, { key }), RatePlanNotFound)
      yield* expectFailure(book(api, bookingBody(guest, [importedRoom(imported, "A")], stay), { key }), RatePlanNotFound)
      // One adult: 80.00 + 80.00 inside the block, 150.00 outside it = 310.00, + 6% VAT 18.60 + 3 × 2.00 city tax.
      expect((yield* hold(api, { ...ordinary, block_id: withPrice }, { key })).total).toBe("334.60")
      const booked = yield* book(api, bookingBody(guest, [importedRoom(imported, "A", { block_id: withPrice })], stay), { key })
      expect(booked.total).toBe("334.60")
      // Without a block price every night follows the override, as the plan's quote of the stay (closed) gives it.
      const quoted = yield* offer(api, plan, stay, 1, { key })
      expect([quoted.bookable, quoted.nights.map((n) => n.amount)]).toEqual([false, ["150.00", "150.00", "150.00"]])
      expect((yield* hold(api, { ...ordinary, block_id: withoutPrice }, { key })).total).toBe(quoted.total)
      const bookedWithout = yield* book(api, bookingBody(guest, [importedRoom(imported, "A", { block_id: withoutPrice })], stay), { key })
      expect(bookedWithout.total).toBe(quoted.total)
      for (const block of [withPrice, withoutPrice]) {
        expect(nightFigures(yield* getBlock(api, block, { key }))).toEqual([
          ["2031-05-08", 2, 2, 0, false],
          ["2031-05-09", 2, 2, 0, false]
        ])
      }
    }))
})
