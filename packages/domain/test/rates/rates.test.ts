import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Inclusion from "../../src/rates/inclusion.js"
import * as Interval from "../../src/rates/interval.js"
import * as PromoCode from "../../src/rates/promoCode.js"
import * as RatePlan from "../../src/rates/ratePlan.js"

const paramOf = <A>(result: Result.Result<A, { readonly param?: string | undefined }>): string | undefined =>
  Result.isFailure(result) ? result.failure.param : undefined

const currencies = ["EUR", "USD", "JPY"]

const create = (overrides: Partial<RatePlan.RatePlanCreate> = {}, parentCurrency?: string) =>
  RatePlan.fieldsFromCreate(
    { room_type_id: "rt", name: "Plan", base_price: "100.00", ...overrides },
    { baseCurrency: "EUR", parentCurrency }
  )

describe("rate plan rules", () => {
  it("applies the defaults of 2.2 and normalises money", () => {
    const result = RatePlan.checkFields(create({ base_price: "99.50" }), currencies)
    expect(Result.getOrThrow(result)).toMatchObject({
      currency: "EUR",
      base_price: "99.5",
      extra_guest_charge: "0",
      single_guest_discount_type: "fixed",
      is_active: true,
      requires_promo_code: false,
      kind: "standard"
    })
  })

  it("a derived plan defaults to its parent's currency", () => {
    expect(create({}, "USD").currency).toBe("USD")
    expect(create({ currency: "JPY" }, "USD").currency).toBe("JPY")
  })

  it("names the field that fails, in the order of 2.2", () => {
    const check = (overrides: Partial<RatePlan.RatePlanCreate>) => paramOf(RatePlan.checkFields(create(overrides), currencies))
    expect(check({ currency: "GBP", base_price: "1.001" })).toBe("currency")
    expect(check({ currency: "JPY", base_price: "1.5" })).toBe("base_price")
    expect(check({ extra_guest_charge: "-1" })).toBe("extra_guest_charge")
    expect(check({ single_guest_discount_type: "percent", single_guest_discount: "101" })).toBe("single_guest_discount")
    expect(check({ min_los: 3, max_los: 2 })).toBe("max_los")
    expect(check({ booking_window_start: "2026-01-02", booking_window_end: "2026-01-01" })).toBe("booking_window_end")
    expect(check({ booking_window_start: "2026-01-02", booking_window_end: "2026-01-02" })).toBeUndefined()
    expect(check({ stay_window_start: "2026-01-02", stay_window_end: "2026-01-01" })).toBe("stay_window_end")
    expect(check({ derived_from_id: "p" })).toBe("derivation_type")
    expect(check({ derived_from_id: "p", derivation_type: "fixed" })).toBe("derivation_value")
    expect(check({ derivation_type: "fixed" })).toBe("derivation_type")
    expect(check({ derivation_value: "1" })).toBe("derivation_value")
    expect(check({ derived_from_id: "p", derivation_type: "percent", derivation_value: "-100.5" })).toBe("derivation_value")
    expect(check({ derived_from_id: "p", derivation_type: "fixed", derivation_value: "-5.50" })).toBeUndefined()
    expect(check({
      cancellation_policy: [{ days_before_arrival: 1, refund_percent: 0 }, { days_before_arrival: 1, refund_percent: 5 }]
    })).toBe("cancellation_policy[1].days_before_arrival")
  })

  it("clearing derived_from_id on PATCH clears the derivation", () => {
    const stored = Result.getOrThrow(
      RatePlan.checkFields(create({ derived_from_id: "p", derivation_type: "percent", derivation_value: "-10" }), currencies)
    )
    const merged = RatePlan.fieldsFromPatch({ derived_from_id: null }, stored)
    expect(merged).toMatchObject({ derived_from_id: null, derivation_type: null, derivation_value: null })
    expect(paramOf(RatePlan.checkFields(RatePlan.fieldsFromPatch({ derived_from_id: null, derivation_value: "1" }, stored), currencies)))
      .toBe("derivation_value")
  })

  it("detects cycles through the chain of parents", () => {
    const parents = new Map<string, string | null>([["a", null], ["b", "a"], ["c", "b"]])
    expect(RatePlan.createsCycle("a", "c", parents)).toBe(true)
    expect(RatePlan.createsCycle("a", "a", parents)).toBe(true)
    expect(RatePlan.createsCycle("c", "a", parents)).toBe(false)
    expect(RatePlan.createsCycle("d", "c", parents)).toBe(false)
  })

  it("a derived plan agrees with its parent's room type and currency", () => {
    const fields = Result.getOrThrow(RatePlan.checkFields(create({ derived_from_id: "p", derivation_type: "fixed", derivation_value: "1" }), currencies))
    expect(paramOf(RatePlan.checkParent(undefined, fields, { id: "p", room_type_id: "other", currency: "EUR" }, new Map())))
      .toBe("room_type_id")
    expect(paramOf(RatePlan.checkParent(undefined, fields, { id: "p", room_type_id: "rt", currency: "USD" }, new Map())))
      .toBe("currency")
    expect(Result.isSuccess(RatePlan.checkParent(undefined, fields, { id: "p", room_type_id: "rt", currency: "EUR" }, new Map())))
      .toBe(true)
  })
})

describe("interval rules", () => {
  const plan = { currency: "EUR", single_guest_discount_type: "fixed" as const, derived: false }
  const fields = (overrides: Partial<Interval.IntervalCreate> = {}) =>
    Interval.fieldsFromCreate({ name: "S", start_date: "2026-01-01", end_date: "2026-01-05", ...overrides })

  it("start before end; back-to-back ranges do not overlap", () => {
    expect(paramOf(Interval.checkFields(fields({ end_date: "2026-01-01" }), plan))).toBe("end_date")
    expect(Interval.overlaps({ start_date: "2026-01-01", end_date: "2026-01-05" }, { start_date: "2026-01-05", end_date: "2026-01-06" }))
      .toBe(false)
    expect(Interval.overlaps({ start_date: "2026-01-01", end_date: "2026-01-05" }, { start_date: "2026-01-04", end_date: "2026-01-06" }))
      .toBe(true)
  })

  it("a derived plan's intervals carry no weekday prices; money in the plan currency", () => {
    expect(paramOf(Interval.checkFields(fields({ price_thu: "10" }), { ...plan, derived: true }))).toBe("price_thu")
    expect(paramOf(Interval.checkFields(fields({ price_thu: "10.5" }), { ...plan, currency: "JPY" }))).toBe("price_thu")
    expect(paramOf(Interval.checkFields(fields({ single_guest_discount: "101" }), { ...plan, single_guest_discount_type: "percent" })))
      .toBe("single_guest_discount")
  })
})

describe("inclusion and promo code rules", () => {
  it("reports inclusion problems by index and defaults the currency", () => {
    const entry = { label: "x", allocated_amount: "1.00", frequency: "perStay", revenue_category: "spa" } as const
    expect(paramOf(Inclusion.checkInclusions([entry, { ...entry, currency: "GBP" }], "EUR", currencies))).toBe("inclusions[1].currency")
    const yen = { ...entry, allocated_amount: "1" }
    expect(paramOf(Inclusion.checkInclusions([yen, yen, { ...entry, allocated_amount: "1.5" }], "JPY", currencies)))
      .toBe("inclusions[2].allocated_amount")
    const ok = Result.getOrThrow(Inclusion.checkInclusions([entry], "USD", currencies))
    expect(ok[0]).toMatchObject({ currency: "USD", inclusion_kind: "perk", included_quantity: 1, service_item_id: null })
  })

  it("a promo code's window may be one day; upper case is the stored form", () => {
    expect(paramOf(PromoCode.checkFields({ valid_from: "2026-01-02", valid_to: "2026-01-01" }))).toBe("valid_to")
    expect(paramOf(PromoCode.checkFields({ valid_from: "2026-01-02", valid_to: "2026-01-02" }))).toBeUndefined()
    expect(PromoCode.normalizeCode("summer-25")).toBe("SUMMER-25")
  })
})
