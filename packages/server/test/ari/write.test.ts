import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { ariNights, postAri, postAriRaw } from "../utils/ari.js"
import { createPlan, expectError, expectInvalid } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// `POST /ari` rate items: each field set and cleared, weekday masks, last-wins within a call, field validation
// with its paths, references and their order, the rules after them, atomicity. On the TestClock.

const T0 = Date.parse("2031-04-01T10:00:00Z")
// 2031-05-04 is a Sunday; 2031-05-09 a Friday.
const week = { start_date: "2031-05-04", end_date: "2031-05-11" }
const closed = {
  min_stay: 2,
  max_stay: 5,
  closed_to_arrival: true,
  closed_to_departure: true,
  stop_sell: true
}
const open = { min_stay: null, max_stay: null, closed_to_arrival: false, closed_to_departure: false, stop_sell: false, available: 3 }

layer(TestApiLive)("POST /ari: rate items", (it) => {
  it.effect("sets each field on the mask's nights, null removes one, a field left out stays", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const plan = yield* createPlan(api, { base_price: "100.00" })
      const set = yield* postAri(api, [{ rate_plan_id: plan, ...week, days: ["fri", "sat"], price: "150.00", ...closed }])
      expect(set).toEqual({ items: 1, nights_updated: 2 })
      expect(yield* ariNights(api, plan, "2031-05-08", "2031-05-11")).toEqual([
        { date: "2031-05-08", price: "100.00", ...open },
        { date: "2031-05-09", price: "150.00", ...closed, available: 3 },
        { date: "2031-05-10", price: "150.00", ...closed, available: 3 }
      ])
      // null removes the price and the minimum; the others stay.
      const cleared = yield* postAri(api, [{ rate_plan_id: plan, ...week, price: null, min_stay: null }])
      expect(cleared).toEqual({ items: 1, nights_updated: 7 })
      expect(yield* ariNights(api, plan, "2031-05-09", "2031-05-10")).toEqual([
        { date: "2031-05-09", price: "100.00", ...closed, min_stay: null, available: 3 }
      ])
      // Once no field is left, the night has no row.
      yield* postAri(api, [{
        rate_plan_id: plan,
        ...week,
        max_stay: null,
        closed_to_arrival: null,
        closed_to_departure: null,
        stop_sell: null
      }])
      const rows = yield* api.sql<{ n: number }>`SELECT count(*)::int AS n FROM rate_plan_nights WHERE rate_plan_id = ${plan}`
      expect(rows[0].n).toBe(0)
      expect(yield* ariNights(api, plan, "2031-05-09", "2031-05-10")).toEqual([{ date: "2031-05-09", price: "100.00", ...open }])
    }))

  it.effect("applies items in order: per night and field the last wins, a later null removes an earlier value", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const plan = yield* createPlan(api, { base_price: "100.00" })
      const answer = yield* postAri(api, [
        { rate_plan_id: plan, ...week, price: "110.00", stop_sell: true },
        { rate_plan_id: plan, start_date: "2031-05-09", end_date: "2031-05-10", price: "200.00" },
        { rate_plan_id: plan, start_date: "2031-05-10", end_date: "2031-05-11", stop_sell: null, min_stay: 3 },
        { rate_plan_id: plan, start_date: "2031-05-10", end_date: "2031-05-11", price: null }
      ])
      expect(answer).toEqual({ items: 4, nights_updated: 10 })
      const nights = yield* ariNights(api, plan, "2031-05-08", "2031-05-11")
      expect(nights.map((n) => [n.price, n.stop_sell, n.min_stay])).toEqual([
        ["110.00", true, null],
        ["200.00", true, null],
        ["100.00", false, 3]
      ])
    }))

  it.effect("a mask that selects no night sets nothing and is accepted", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const plan = yield* createPlan(api)
      // 2031-05-04 to 2031-05-06: Sunday and Monday.
      const answer = yield* postAri(api, [{ rate_plan_id: plan, start_date: "2031-05-04", end_date: "2031-05-06", days: ["fri"], price: "1.00" }])
      expect(answer).toEqual({ items: 1, nights_updated: 0 })
    }))

  it.effect("field validation names the first bad item's field by its path as sent", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const plan = yield* createPlan(api)
      const type = api.property.room_types["DBL"]
      const ok = { rate_plan_id: plan, ...week, price: "100.00" }
      const refused = (items: unknown, param: string) =>
        Effect.map(postAriRaw(api, { items }), (res) => expectInvalid(res, param))
      yield* refused(undefined, "items")
      yield* refused("x", "items")
      yield* refused([], "items")
      yield* refused(Array.from({ length: 1001 }, () => ok), "items")
      // 274 items of 366 nights: more than 100,000 nights in all.
      const long = { rate_plan_id: plan, start_date: "2031-04-01", end_date: "2032-04-01", stop_sell: false }
      yield* refused(Array.from({ length: 274 }, () => long), "items")
      yield* refused([ok, 7], "items[1]")
      yield* refused([ok, { ...week, price: "1.00" }], "items[1].rate_plan_id")
      yield* refused([{ ...ok, room_type_id: type }], "items[0].room_type_id")
      yield* refused([{ ...ok, rate_plan_id: "nope" }], "items[0].rate_plan_id")
      yield* refused([{ ...ok, sell_limit: 1 }], "items[0].sell_limit")
      yield* refused([{ room_type_id: type, ...week, price: "1.00" }], "items[0].price")
      yield* refused([{ ...ok, start_date: "2031-02-30" }], "items[0].start_date")
      yield* refused([{ ...ok, end_date: 20310511 }], "items[0].end_date")
      yield* refused([ok, { ...ok, days: ["fri", "funday"] }], "items[1].days[1]")
      yield* refused([{ ...ok, days: ["fri", "fri"] }], "items[0].days[1]")
      yield* refused([{ ...ok, days: [] }], "items[0].days")
      yield* refused([{ ...ok, price: 100 }], "items[0].price")
      yield* refused([{ ...ok, price: "-1.00" }], "items[0].price")
      yield* refused([{ ...ok, price: "1000000000.01" }], "items[0].price")
      yield* refused([{ ...ok, min_stay: 0 }], "items[0].min_stay")
      yield* refused([{ ...ok, max_stay: 31 }], "items[0].max_stay")
      yield* refused([{ ...ok, min_stay: 4, max_stay: 3 }], "items[0].max_stay")
      yield* refused([{ ...ok, closed_to_arrival: "yes" }], "items[0].closed_to_arrival")
      yield* refused([{ ...ok, closed_to_departure: 1 }], "items[0].closed_to_departure")
      yield* refused([{ ...ok, stop_sell: "true" }], "items[0].stop_sell")
      yield* refused([{ rate_plan_id: plan, ...week }], "items[0]")
      yield* refused([{ room_type_id: type, ...week }], "items[0]")
      yield* refused([{ room_type_id: type, ...week, sell_limit: -1 }], "items[0].sell_limit")
      yield* refused([{ room_type_id: type, ...week, overbooking: 1.5 }], "items[0].overbooking")
      // The range: end after start, at most 366 nights, from today to today + 730.
      yield* refused([{ ...ok, end_date: week.start_date }], "items[0].end_date")
      yield* refused([{ ...ok, start_date: "2031-04-01", end_date: "2032-04-02" }], "items[0].end_date")
      yield* refused([{ ...ok, start_date: "2031-03-31" }], "items[0].start_date")
      yield* refused([{ ...ok, start_date: "2033-03-01", end_date: "2033-04-02" }], "items[0].end_date")
      // A field invalid on its own comes before the rules between fields; the first bad item wins.
      yield* refused([{ ...ok, end_date: week.start_date, price: "x" }], "items[0].price")
      yield* refused([{ ...ok, end_date: week.start_date }, { ...ok, price: "x" }], "items[0].end_date")
      // The last night allowed is today + 729.
      const last = yield* postAri(api, [{ ...ok, start_date: "2033-03-30", end_date: "2033-03-31" }])
      expect(last.nights_updated).toBe(1)
    }))
})
