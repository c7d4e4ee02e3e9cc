import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { SalesContext } from "../../src/platform/ApiKey.js"
import { listedReasons, visibilityOf } from "../../src/rates/visibility/offerVisibility.js"
import { hidesPlan, planVisibility, REASONS } from "../../src/rates/visibility/visibility.js"
import { plan, room } from "../quotes/fixtures.js"

describe("visibilityOf", () => {
  const source = {
    today: "2026-11-20",
    promoCodes: [{ id: "c1", ratePlanId: "bar", code: "WINTER", isActive: true, redemptions: 0 }]
  }
  const stay = { checkIn: "2026-12-01", checkOut: "2026-12-04", party: { adults: 2 } }

  it.each<{ case: string; promoCode?: string | null; salesContext?: SalesContext; roomTypeId?: string; expected: ReadonlyArray<string> }>([
    { case: "sellable", expected: [] },
    { case: "the source's codes are checked against the stay's", promoCode: "winter", expected: [] },
    { case: "no code is a missing code", promoCode: null, expected: ["promo_code_required"] },
    { case: "an unknown code", promoCode: "SUMMER", expected: ["promo_code_invalid"] },
    { case: "the sales context", promoCode: "WINTER", salesContext: "booking_engine", expected: ["sales_context"] },
    { case: "another room type", promoCode: "WINTER", roomTypeId: "suite", expected: ["rate_plan_inactive"] }
  ])("$case: $expected", ({ expected, promoCode, roomTypeId, salesContext }) => {
    const model = plan({ requiresPromoCode: true, activeForBookingEngine: false, minLos: 1 })
    const reasons = visibilityOf(
      source,
      { model },
      roomTypeId ?? "dbl",
      room,
      { ...stay, ...(promoCode === undefined ? { promoCode: "WINTER" } : { promoCode }) },
      salesContext ?? "back_office"
    )
    expect(reasons).toEqual(expected)
  })

  it("is the visibility rule at the source's today: a booking window closed yesterday", () => {
    const model = plan({ bookingWindowEnd: "2026-11-19" })
    expect(visibilityOf(source, { model }, "dbl", room, stay, "back_office")).toEqual(["booking_window"])
    expect(visibilityOf({ ...source, today: "2026-11-19" }, { model }, "dbl", room, stay, "back_office")).toEqual([])
    expect(visibilityOf(source, { model }, "dbl", room, stay, "back_office")).toEqual(planVisibility({
      plan: model,
      roomTypeId: "dbl",
      roomType: room,
      party: stay.party,
      checkIn: stay.checkIn,
      checkOut: stay.checkOut,
      today: source.today,
      salesContext: "back_office",
      promoCode: null,
      promoCodes: source.promoCodes
    }))
  })
})

describe("listedReasons", () => {
  it.each([
    { reasons: [], expected: [] },
    { reasons: ["rate_plan_inactive", "sales_context"], expected: [] },
    { reasons: ["sales_context", "min_stay", "stop_sell"], expected: ["min_stay", "stop_sell"] },
    { reasons: ["party_too_large", "promo_code_invalid"], expected: ["party_too_large", "promo_code_invalid"] }
  ] as const)("$reasons → $expected", ({ expected, reasons }) => {
    expect(listedReasons(reasons)).toEqual(expected)
  })

  it("keeps exactly the reasons that do not hide the plan, in their order", () => {
    fc.assert(fc.property(fc.subarray([...REASONS]), (reasons) => {
      expect(listedReasons(reasons)).toEqual(reasons.filter((reason) => !hidesPlan(reason)))
      expect(listedReasons(reasons).some(hidesPlan)).toBe(false)
    }))
  })
})
