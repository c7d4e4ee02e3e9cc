import { describe, expect, it } from "@effect/vitest"
import type { RatePlan } from "../../src/quotes/model.js"
import type { PromoCodeState } from "../../src/rates/visibility/promoCodes.js"
import { hidesPlan, planVisibility, type VisibilityRequest } from "../../src/rates/visibility/visibility.js"
import { derived, plan } from "../quotes/fixtures.js"

// Stay: nights 10, 11, 12 December 2026; booked on 1 December.
const request = (overrides: Partial<VisibilityRequest> = {}): VisibilityRequest => ({
  plan: plan(),
  roomTypeId: "dbl",
  roomType: { baseOccupancy: 2, maxOccupancy: 3 },
  party: { adults: 2 },
  checkIn: "2026-12-10",
  checkOut: "2026-12-13",
  today: "2026-12-01",
  salesContext: "back_office",
  ...overrides
})
const reasons = (overrides: Partial<VisibilityRequest> = {}) => planVisibility(request(overrides))
const withPlan = (overrides: Partial<RatePlan>, rest: Partial<VisibilityRequest> = {}) => reasons({ plan: plan(overrides), ...rest })

const code = (overrides: Partial<PromoCodeState> = {}): PromoCodeState => ({
  id: "pc1", ratePlanId: "bar", code: "WINTER", isActive: true, redemptions: 0, ...overrides
})

describe("planVisibility", () => {
  it("is empty for a sellable plan", () => {
    expect(reasons()).toEqual([])
  })

  it("rate_plan_inactive: inactive, deleted or another room type; hides the plan", () => {
    expect(withPlan({ isActive: false })).toEqual(["rate_plan_inactive"])
    expect(withPlan({ deleted: true })).toEqual(["rate_plan_inactive"])
    expect(reasons({ roomTypeId: "suite" })).toEqual(["rate_plan_inactive"])
    expect(hidesPlan("rate_plan_inactive")).toBe(true)
    expect(hidesPlan("stop_sell")).toBe(false)
  })

  it("sales_context: booking engine and channel keys see only plans active for them", () => {
    const hidden = { activeForBookingEngine: false, activeForChannels: false }
    expect(withPlan(hidden)).toEqual([])
    expect(withPlan(hidden, { salesContext: "booking_engine" })).toEqual(["sales_context"])
    expect(withPlan(hidden, { salesContext: "channel" })).toEqual(["sales_context"])
    expect(withPlan({ activeForChannels: false }, { salesContext: "booking_engine" })).toEqual([])
    expect(hidesPlan("sales_context")).toBe(true)
  })

  it("booking_window: the property's today inside the window, both ends included", () => {
    expect(withPlan({ bookingWindowStart: "2026-12-01", bookingWindowEnd: "2026-12-01" })).toEqual([])
    expect(withPlan({ bookingWindowStart: "2026-12-02" })).toEqual(["booking_window"])
    expect(withPlan({ bookingWindowEnd: "2026-11-30" })).toEqual(["booking_window"])
  })

  it("stay_window: every night inside, both ends included; check-out day is not a night", () => {
    expect(withPlan({ stayWindowStart: "2026-12-10", stayWindowEnd: "2026-12-12" })).toEqual([])
    expect(withPlan({ stayWindowStart: "2026-12-11" })).toEqual(["stay_window"])
    expect(withPlan({ stayWindowEnd: "2026-12-11" })).toEqual(["stay_window"])
  })

  it("min_stay / max_stay: the plan's length of stay and the arrival interval's rules", () => {
    expect(withPlan({ minLos: 3, maxLos: 3 })).toEqual([])
    expect(withPlan({ minLos: 4 })).toEqual(["min_stay"])
    expect(withPlan({ maxLos: 2 })).toEqual(["max_stay"])
    const arrival = { startDate: "2026-12-10", endDate: "2026-12-11" }
    expect(withPlan({ intervals: [{ ...arrival, minStay: 4 }] })).toEqual(["min_stay"])
    expect(withPlan({ intervals: [{ ...arrival, maxStay: 2 }] })).toEqual(["max_stay"])
    // a later night's interval does not impose its stay rules
    expect(withPlan({ intervals: [{ startDate: "2026-12-11", endDate: "2026-12-20", minStay: 7 }] })).toEqual([])
  })

  it("closed_to_arrival: the interval covering the check-in night", () => {
    expect(withPlan({ intervals: [{ startDate: "2026-12-10", endDate: "2026-12-11", closedToArrival: true }] })).toEqual(["closed_to_arrival"])
    expect(withPlan({ intervals: [{ startDate: "2026-12-09", endDate: "2026-12-10", closedToArrival: true }] })).toEqual([])
    expect(withPlan({ intervals: [{ startDate: "2026-12-11", endDate: "2026-12-12", closedToArrival: true }] })).toEqual([])
  })

  it("closed_to_departure: the interval covering the check-out date as a night", () => {
    expect(withPlan({ intervals: [{ startDate: "2026-12-13", endDate: "2026-12-14", closedToDeparture: true }] })).toEqual(["closed_to_departure"])
    expect(withPlan({ intervals: [{ startDate: "2026-12-01", endDate: "2026-12-31", closedToDeparture: true }] })).toEqual(["closed_to_departure"])
    // ends on the check-out date: does not cover it
    expect(withPlan({ intervals: [{ startDate: "2026-12-10", endDate: "2026-12-13", closedToDeparture: true }] })).toEqual([])
  })

  it("stop_sell: any night of the stay", () => {
    expect(withPlan({ intervals: [{ startDate: "2026-12-12", endDate: "2026-12-13", stopSell: true }] })).toEqual(["stop_sell"])
    expect(withPlan({ intervals: [{ startDate: "2026-12-13", endDate: "2026-12-14", stopSell: true }] })).toEqual([])
  })

  it("party_too_large: adults + children above the room type's max occupancy", () => {
    expect(reasons({ party: { adults: 2, children: 1 } })).toEqual([])
    expect(reasons({ party: { adults: 2, children: 2 } })).toEqual(["party_too_large"])
    expect(reasons({ party: { adults: 3, children: 0, childAges: [4] } })).toEqual(["party_too_large"])
  })

  it("promo_code_required / promo_code_invalid for a gated plan", () => {
    const gated = { requiresPromoCode: true }
    expect(withPlan(gated)).toEqual(["promo_code_required"])
    expect(withPlan(gated, { promoCode: "" })).toEqual(["promo_code_required"])
    expect(withPlan(gated, { promoCode: "winter", promoCodes: [code()] })).toEqual([])
    expect(withPlan(gated, { promoCode: "SUMMER", promoCodes: [code()] })).toEqual(["promo_code_invalid"])
    expect(withPlan(gated, { promoCode: "WINTER", promoCodes: [code({ ratePlanId: "other" })] })).toEqual(["promo_code_invalid"])
    expect(withPlan(gated, { promoCode: "WINTER", promoCodes: [code({ isActive: false })] })).toEqual(["promo_code_invalid"])
    expect(withPlan(gated, { promoCode: "WINTER", promoCodes: [code({ deleted: true })] })).toEqual(["promo_code_invalid"])
    expect(withPlan(gated, { promoCode: "WINTER", promoCodes: [code({ validFrom: "2026-12-01", validTo: "2026-12-01" })] })).toEqual([])
    expect(withPlan(gated, { promoCode: "WINTER", promoCodes: [code({ validFrom: "2026-12-02" })] })).toEqual(["promo_code_invalid"])
    expect(withPlan(gated, { promoCode: "WINTER", promoCodes: [code({ validTo: "2026-11-30" })] })).toEqual(["promo_code_invalid"])
    expect(withPlan(gated, { promoCode: "WINTER", promoCodes: [code({ maxRedemptions: 5, redemptions: 4 })] })).toEqual([])
    expect(withPlan(gated, { promoCode: "WINTER", promoCodes: [code({ maxRedemptions: 5, redemptions: 5 })] })).toEqual(["promo_code_invalid"])
    expect(withPlan(gated, { promoCode: "WINTER", promoCodes: [code({ maxPerGuest: 1, guestRedemptions: 1 })] })).toEqual(["promo_code_invalid"])
    expect(withPlan(gated, { promoCode: "WINTER", promoCodes: [code({ maxPerGuest: 1, guestRedemptions: 0 })] })).toEqual([])
    // an ungated plan ignores a code
    expect(withPlan({}, { promoCode: "NOPE" })).toEqual([])
  })

  it("a derived plan also passes every rule of its ancestors, reasons deduplicated in a fixed order", () => {
    const root = plan({ id: "root", minLos: 5, intervals: [{ startDate: "2026-12-12", endDate: "2026-12-13", stopSell: true }] })
    const middle = derived(root, "percent", "-10", { id: "middle", bookingWindowStart: "2026-12-05", minLos: 4 })
    const child = derived(middle, "fixed", "-5", { id: "child", intervals: [{ startDate: "2026-12-10", endDate: "2026-12-11", closedToArrival: true }] })
    expect(reasons({ plan: child })).toEqual(["booking_window", "min_stay", "closed_to_arrival", "stop_sell"])
    expect(reasons({ plan: derived(plan({ isActive: false }), "percent", "0") })).toEqual(["rate_plan_inactive"])
  })

  it("lists several reasons at once", () => {
    expect(withPlan({ isActive: false, maxLos: 1, stayWindowEnd: "2026-12-01" }, { party: { adults: 4 } }))
      .toEqual(["rate_plan_inactive", "party_too_large", "stay_window", "max_stay"])
  })
})
