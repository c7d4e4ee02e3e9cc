import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as fc from "fast-check"
import { addDays } from "../../src/quotes/dates.js"
import { MissingExchangeRate } from "../../src/quotes/fx.js"
import { makePricingMemo } from "../../src/quotes/memo.js"
import type { Tax } from "../../src/quotes/model.js"
import { priceStay } from "../../src/quotes/quote.js"
import { maxStayNights, type StayQuery, stayRequestFor, tryPriceStay, validateStay } from "../../src/quotes/stay.js"
import { d, plan, property, room } from "./fixtures.js"

const today = "2026-11-20"
const query = (checkIn: string, checkOut: string): StayQuery => ({ checkIn, checkOut, party: { adults: 2 } })
/** `ok`, or the refusal as `Tag param: message`. */
const outcome = (stay: StayQuery) =>
  Result.match(validateStay(stay, today), {
    onFailure: (error) => `${error._tag} ${error.param}: ${error.message}`,
    onSuccess: () => "ok"
  })

describe("validateStay", () => {
  it.each([
    { case: "one night", checkIn: "2026-12-01", checkOut: "2026-12-02", expected: "ok" },
    { case: "30 nights, the most", checkIn: "2026-12-01", checkOut: "2026-12-31", expected: "ok" },
    { case: "arriving today", checkIn: today, checkOut: "2026-11-21", expected: "ok" },
    {
      case: "no night",
      checkIn: "2026-12-01",
      checkOut: "2026-12-01",
      expected: "InvalidParameters check_out: check_out must be after check_in"
    },
    {
      case: "check-out before check-in",
      checkIn: "2026-12-01",
      checkOut: "2026-11-30",
      expected: "InvalidParameters check_out: check_out must be after check_in"
    },
    {
      case: "31 nights",
      checkIn: "2026-12-01",
      checkOut: "2027-01-01",
      expected: "InvalidParameters check_out: A stay may be at most 30 nights"
    },
    {
      case: "arriving yesterday",
      checkIn: "2026-11-19",
      checkOut: "2026-11-21",
      expected: "InvalidParameters check_in: check_in must not be before the property's today (2026-11-20)"
    },
    {
      case: "arriving yesterday, no night: the dates' order first",
      checkIn: "2026-11-19",
      checkOut: "2026-11-19",
      expected: "InvalidParameters check_out: check_out must be after check_in"
    },
    {
      case: "arriving yesterday, 31 nights: the length first",
      checkIn: "2026-11-19",
      checkOut: "2026-12-20",
      expected: "InvalidParameters check_out: A stay may be at most 30 nights"
    }
  ])("$case: $expected", ({ checkIn, checkOut, expected }) => {
    expect(outcome(query(checkIn, checkOut))).toBe(expected)
  })

  it("refuses exactly the stays outside 1..30 nights (check_out), then those arriving before today (check_in)", () => {
    fc.assert(fc.property(fc.integer({ min: -40, max: 400 }), fc.integer({ min: -5, max: 45 }), (offset, nights) => {
      const checkIn = addDays(today, offset)
      const result = validateStay(query(checkIn, addDays(checkIn, nights)), today)
      const param = nights < 1 || nights > maxStayNights ? "check_out" : offset < 0 ? "check_in" : null
      expect(Result.isFailure(result) ? result.failure.param : null).toBe(param)
    }))
  })
})

describe("stayRequestFor", () => {
  it("prices the plan's model with its own inclusions, on the property's pricing, as the request asks", () => {
    const model = plan()
    const inclusions = [{
      label: "Breakfast",
      allocatedAmount: d("10.00"),
      frequency: "perNight" as const,
      inclusionKind: "perk" as const,
      revenueCategory: "fnb",
      currency: "EUR",
      includedQuantity: 1
    }]
    const pricing = property()
    const memo = makePricingMemo()
    const stay: StayQuery = { ...query("2026-12-01", "2026-12-04"), promoCode: "WINTER" }
    const request = stayRequestFor({ property: { pricing } }, { model, inclusions }, room, stay, { trace: false, memo })
    expect(request).toEqual({
      plan: model,
      roomType: room,
      property: pricing,
      checkIn: "2026-12-01",
      checkOut: "2026-12-04",
      party: { adults: 2 },
      addOns: [],
      inclusions,
      trace: false,
      memo
    })
    expect(request.memo).toBe(memo)
  })
})

describe("tryPriceStay", () => {
  const fixedTax: Tax = { code: "RESORT", name: "Resort fee", kind: "perStay", value: d("5.00") }
  const request = (currency: string) =>
    stayRequestFor(
      { property: { pricing: property({ taxes: [fixedTax] }) } },
      { model: plan({ currency }), inclusions: [] },
      room,
      query("2026-12-01", "2026-12-04"),
      { trace: true }
    )

  it("is the engine's quote when the stay can be priced", () => {
    expect(tryPriceStay(request("EUR"))).toEqual(Result.succeed(priceStay(request("EUR"))))
  })

  it("answers a missing exchange rate as a value: the offer lists it as currency_unavailable", () => {
    const priced = tryPriceStay(request("USD"))
    expect(Result.isFailure(priced) && priced.failure instanceof MissingExchangeRate).toBe(true)
  })

  it("rethrows anything else: a defect, not a reason", () => {
    const broken = Object.defineProperty({ ...plan() }, "basePrice", {
      get: () => {
        throw new Error("boom")
      }
    })
    const stay = stayRequestFor(
      { property: { pricing: property() } },
      { model: broken, inclusions: [] },
      room,
      query("2026-12-01", "2026-12-02"),
      { trace: true }
    )
    expect(() => tryPriceStay(stay)).toThrow("boom")
  })
})
