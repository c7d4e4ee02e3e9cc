import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Money from "../../src/money/Money.js"
import { checkItems, mergeRateItems, planSpans, roomTypeSpans, validateItems } from "../../src/ari/index.js"
import type { RatePlan } from "../../src/quotes/model.js"
import { nightRulesFor } from "../../src/quotes/nightRules.js"

// The pure rules of channel ARI: the body's checks, the merge of items (last wins per night and field), the
// spans of the events, and the night rules (an override above the interval, both ways).

const plan = "11111111-1111-4111-8111-111111111111"
const child = "22222222-2222-4222-8222-222222222222"
const type = "33333333-3333-4333-8333-333333333333"
const today = "2031-04-01"

const valid = (items: ReadonlyArray<unknown>) => Result.getOrThrow(validateItems(items, today))
const paramOf = (items: unknown) => Result.match(validateItems(items, today), { onFailure: (e) => e.param, onSuccess: () => "ok" })

describe("validateItems", () => {
  it("names the first bad item's field; fields on their own before rules between them", () => {
    const ok = { rate_plan_id: plan, start_date: "2031-05-04", end_date: "2031-05-11", price: "1.00" }
    expect(paramOf([ok])).toBe("ok")
    expect(paramOf({})).toBe("items")
    expect(paramOf([ok, { ...ok, days: ["mon", 3] }])).toBe("items[1].days[1]")
    expect(paramOf([{ ...ok, end_date: "2031-05-04", stop_sell: "no" }])).toBe("items[0].stop_sell")
    expect(paramOf([{ ...ok, min_stay: 5, max_stay: 4 }])).toBe("items[0].max_stay")
    expect(paramOf([{ room_type_id: type, start_date: "2031-05-04", end_date: "2031-05-11", stop_sell: true }])).toBe("items[0].stop_sell")
  })

  it("selects the weekdays of the mask; an uppercase id is read as lower case", () => {
    const [item] = valid([{ rate_plan_id: plan.toUpperCase(), start_date: "2031-05-04", end_date: "2031-05-11", days: ["sun", "sat"], stop_sell: true }])
    expect(item.nights).toEqual(["2031-05-04", "2031-05-10"])
    expect(item.kind === "rate" && item.rate_plan_id).toBe(plan)
  })
})

describe("checkItems and mergeRateItems", () => {
  const targets = {
    plans: new Map([[plan, { derived: false, currency: "EUR" }], [child, { derived: true, currency: "EUR" }]]),
    roomTypes: new Map([[type, { rooms: 3 }]])
  }

  it("refuses a price on a derived plan, decimals beyond the currency, capacity above the rooms, first item first", () => {
    const at = (items: ReadonlyArray<unknown>) =>
      Result.match(checkItems(valid(items), targets), { onFailure: (e) => e.param, onSuccess: () => "ok" })
    const range = { start_date: "2031-05-04", end_date: "2031-05-05" }
    expect(at([{ rate_plan_id: child, ...range, price: null }])).toBe("items[0].price")
    expect(at([{ rate_plan_id: plan, ...range, price: "1.001" }, { rate_plan_id: child, ...range, price: "1" }])).toBe("items[0].price")
    expect(at([{ room_type_id: type, ...range, sell_limit: 4 }])).toBe("items[0].sell_limit")
    expect(at([{ rate_plan_id: child, ...range, min_stay: 2 }, { room_type_id: type, ...range, overbooking: 3 }])).toBe("ok")
  })

  it("per night and field the last item wins; a later null removes an earlier value", () => {
    const checked = Result.getOrThrow(checkItems(valid([
      { rate_plan_id: plan, start_date: "2031-05-04", end_date: "2031-05-06", price: "10.00", stop_sell: true },
      { rate_plan_id: plan, start_date: "2031-05-05", end_date: "2031-05-06", price: null, min_stay: 2 }
    ]), targets))
    const merged = mergeRateItems(checked)
    expect(merged.map((m) => [m.night, m.patch.price === null ? null : m.patch.price === undefined ? undefined : Money.toDb(m.patch.price), m.patch.stop_sell, m.patch.min_stay]))
      .toEqual([["2031-05-04", "10", true, undefined], ["2031-05-05", null, true, 2]])
  })
})

describe("event spans", () => {
  it("spans each plan over the items naming it or a plan it derives from; room types over their items", () => {
    const items = valid([
      { rate_plan_id: plan, start_date: "2031-05-04", end_date: "2031-05-06", price: "1.00" },
      { rate_plan_id: child, start_date: "2031-06-01", end_date: "2031-06-02", stop_sell: true },
      { room_type_id: type, start_date: "2031-05-10", end_date: "2031-05-12", sell_limit: 1 },
      { room_type_id: type, start_date: "2031-05-01", end_date: "2031-05-02", overbooking: null }
    ])
    const chains = new Map([[plan, [plan]], [child, [child, plan]]])
    expect(planSpans(items, [child, plan], (id) => chains.get(id) ?? [])).toEqual([
      { id: plan, start_date: "2031-05-04", end_date: "2031-05-06" },
      { id: child, start_date: "2031-05-04", end_date: "2031-06-02" }
    ])
    expect(roomTypeSpans(items)).toEqual([{ id: type, start_date: "2031-05-01", end_date: "2031-05-12" }])
  })
})

describe("nightRulesFor", () => {
  it("an override replaces the interval's value both ways; a field without one falls back", () => {
    const base = { id: plan, roomTypeId: type, currency: "EUR", basePrice: Money.fromDb("100"), extraGuestCharge: Money.zero, singleGuestDiscount: Money.zero, singleGuestDiscountType: "fixed" as const, isActive: true, deleted: false, activeForBookingEngine: true, activeForChannels: true, requiresPromoCode: false }
    const rated: RatePlan = {
      ...base,
      intervals: [{ startDate: "2031-05-01", endDate: "2031-06-01", minStay: 3, closedToArrival: true, stopSell: true }],
      nights: new Map([["2031-05-09", { price: null, minStay: 1, maxStay: null, closedToArrival: false, closedToDeparture: null, stopSell: null }]])
    }
    expect(nightRulesFor(rated, "2031-05-09")).toEqual({ minStay: 1, maxStay: null, closedToArrival: false, closedToDeparture: false, stopSell: true })
    expect(nightRulesFor(rated, "2031-05-10")).toEqual({ minStay: 3, maxStay: null, closedToArrival: true, closedToDeparture: false, stopSell: true })
  })
})
