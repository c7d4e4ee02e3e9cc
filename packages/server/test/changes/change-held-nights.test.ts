import { expect, layer } from "@effect/vitest"
import { NoAvailability } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { confirm, getReservation, hold, importedHoldBody, importRoomTypes, newGuest } from "../utils/booking.js"
import { change, changeQuote } from "../utils/changes.js"
import { breakdown, putControls } from "../utils/inventory.js"
import { expectFailure } from "../utils/client.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"

// A night of the new stay that the reservation already holds, of the same room type, is kept as a confirm keeps
// a live hold's nights: a sell limit or an overbooking lowered after it was sold never refuses a change of it
// (a shorter stay, a smaller or larger party on the same nights), in the quote and the PATCH alike; a night it
// does not hold still needs a room under today's capacity. On the TestClock.

const T0 = Date.parse("2031-04-01T10:00:00Z")
const stay = { check_in: "2031-06-10", check_out: "2031-06-13" }

/** `n` stays of one new guest each on room type `code`, confirmed unless `tentative`. */
const stays = (api: TestApiService, setup: { readonly imported: Parameters<typeof importedHoldBody>[0]; readonly key: string }, code: string, n: number, dates: typeof stay, tentative = false) =>
  Effect.forEach(Array.from({ length: n }), () =>
    Effect.gen(function*() {
      const guest = yield* newGuest(api, setup.imported.property_id)
      const held = yield* hold(api, importedHoldBody(setup.imported, code, guest, dates), { key: setup.key })
      if (!tentative) yield* confirm(api, held.reservation_id, {}, { key: setup.key })
      return held.reservation_id
    }))

layer(TestApiLive)("a change keeps the nights it holds", (it) => {
  it.effect("sell limit lowered under three confirmed stays: a shorter stay and a party change are quoted and made", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const setup = yield* importRoomTypes(api, { SMALL: 3 })
      const { imported, key } = setup
      const small = imported.room_types.SMALL
      const [first, second, third] = yield* stays(api, setup, "SMALL", 3, stay)
      // Allowed, and it cancels nothing: the three nights now sell one room, and three are taken.
      yield* putControls(api, small, { start_date: stay.check_in, end_date: stay.check_out, sell_limit: 1 }, { key })
      expect((yield* breakdown(api, small, "2031-06-10", "2031-06-12", { key })).map((n) => [n.taken, n.available]))
        .toEqual([[3, 0], [3, 0], [3, 0]])

      // One night earlier: every night of the new stay is one it holds.
      const shorter = yield* changeQuote(api, first, { check_out: "2031-06-12" }, { key })
      expect(shorter).toMatchObject({ bookable: true, reasons: [], previous_total: "324.00", total: "216.00" })
      expect(shorter.nights.map((n) => [n.date, n.kept])).toEqual([["2031-06-10", true], ["2031-06-11", true]])
      const changed = yield* change(api, first, { check_out: "2031-06-12" }, { key })
      expect([changed.check_in_date, changed.check_out_date, changed.total]).toEqual(["2031-06-10", "2031-06-12", "216.00"])

      // Another party on the same nights (one guest more, one fewer).
      expect(yield* changeQuote(api, second, { adults: 2 }, { key })).toMatchObject({ bookable: true, reasons: [] })
      expect((yield* change(api, second, { adults: 2 }, { key })).adults).toBe(2)
      expect((yield* change(api, second, { adults: 1 }, { key })).adults).toBe(1)
      // A later arrival, then a stay moved inside the nights it holds.
      expect((yield* change(api, third, { check_in: "2031-06-11" }, { key })).check_in_date).toBe("2031-06-11")
      expect((yield* change(api, third, { check_out: "2031-06-12" }, { key })).check_out_date).toBe("2031-06-12")

      // A night given back is not held any more: under the sell limit it is full (2 taken, 1 sellable).
      const back = yield* changeQuote(api, first, { check_out: "2031-06-13" }, { key })
      expect(back).toMatchObject({ bookable: false, reasons: ["sold_out"] })
      yield* expectFailure(change(api, first, { check_out: "2031-06-13" }, { key }), NoAvailability)
      yield* expectFailure(change(api, third, { check_in: "2031-06-10" }, { key }), NoAvailability)
      // Nothing was sold beyond what was already taken; the refused changes left the stays as they were.
      expect((yield* breakdown(api, small, "2031-06-10", "2031-06-12", { key })).map((n) => n.taken)).toEqual([2, 3, 1])
      expect((yield* getReservation(api, first, { key })).check_out_date).toBe("2031-06-12")
      expect((yield* getReservation(api, third, { key })).check_in_date).toBe("2031-06-11")
    }))

  it.effect("a night it does not hold is refused when full: another room type, a later night, a live hold alike", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const setup = yield* importRoomTypes(api, { A: 2, B: 2 })
      const { imported, key } = setup
      const [mine] = yield* stays(api, setup, "A", 1, stay, true)
      // The night after the stay is full with no control at all; type B is full on the stay's nights.
      yield* stays(api, setup, "A", 2, { check_in: "2031-06-13", check_out: "2031-06-14" })
      yield* stays(api, setup, "B", 2, stay)
      const longer = yield* changeQuote(api, mine, { check_out: "2031-06-14" }, { key })
      expect(longer).toMatchObject({ bookable: false, reasons: ["sold_out"] })
      yield* expectFailure(change(api, mine, { check_out: "2031-06-14" }, { key }), NoAvailability)
      const other = { room_type_id: imported.room_types.B, rate_plan_id: imported.rate_plans["BAR-B"] }
      expect(yield* changeQuote(api, mine, other, { key })).toMatchObject({ bookable: false, reasons: ["sold_out"] })
      yield* expectFailure(change(api, mine, other, { key }), NoAvailability)
      // With a sell limit of 0 on its own nights, the hold still takes a smaller party and still confirms.
      yield* putControls(api, imported.room_types.A, { start_date: stay.check_in, end_date: stay.check_out, sell_limit: 0 }, { key })
      expect((yield* change(api, mine, { adults: 2, check_in: "2031-06-11" }, { key })).adults).toBe(2)
      expect((yield* confirm(api, mine, {}, { key })).status).toBe("confirmed")
    }))

  it.effect("overbooking lowered after a stay was sold through it: the change keeps its nights, the confirm after it too", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const setup = yield* importRoomTypes(api, { A: 1 })
      const { imported, key } = setup
      const a = imported.room_types.A
      yield* stays(api, setup, "A", 1, stay)
      yield* putControls(api, a, { start_date: stay.check_in, end_date: stay.check_out, overbooking: 1 }, { key })
      const [overbooked] = yield* stays(api, setup, "A", 1, stay, true)
      yield* putControls(api, a, { start_date: stay.check_in, end_date: stay.check_out, overbooking: 0 }, { key })
      expect(yield* changeQuote(api, overbooked, { check_in: "2031-06-11" }, { key })).toMatchObject({ bookable: true })
      expect((yield* change(api, overbooked, { check_in: "2031-06-11" }, { key })).check_in_date).toBe("2031-06-11")
      expect((yield* change(api, overbooked, { adults: 2 }, { key })).adults).toBe(2)
      // The nights it kept keep the overbooking they were sold under: its confirm is not refused either.
      expect((yield* confirm(api, overbooked, {}, { key })).status).toBe("confirmed")
      yield* expectFailure(change(api, overbooked, { check_in: "2031-06-10" }, { key }), NoAvailability)
      expect((yield* breakdown(api, a, "2031-06-10", "2031-06-12", { key })).map((n) => n.taken)).toEqual([1, 2, 2])
    }))
})
