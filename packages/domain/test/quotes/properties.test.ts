// Property-based checks of the engine's invariants over random (non-negative) configurations.
import { describe, expect, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as fc from "fast-check"
import { digitsOf } from "../../src/money/Currency.js"
import * as Money from "../../src/money/Money.js"
import { addDays } from "../../src/quotes/dates.js"
import type { AddOn, Interval, PricingProperty, RatePlan, Tax } from "../../src/quotes/model.js"
import { priceStay, type Quote, type StayRequest } from "../../src/quotes/quote.js"
import { planVisibility } from "../../src/rates/visibility/visibility.js"
import { derived, plan } from "./fixtures.js"

const CURRENCIES = ["EUR", "JPY", "KWD"] as const
const ORIGIN = "2026-11-20"

const money = (currency: string, maxMajor: number) =>
  fc.integer({ min: 0, max: maxMajor * 10 ** digitsOf(currency) }).map((minor) => BigDecimal.make(BigInt(minor), digitsOf(currency)))
const percent = fc.integer({ min: 0, max: 10000 }).map((n) => BigDecimal.make(BigInt(n), 2)) // 0.00 .. 100.00
const signed = fc.integer({ min: -5000, max: 5000 }).map((n) => BigDecimal.make(BigInt(n), 2))
const maybe = <A>(arb: fc.Arbitrary<A>) => fc.option(arb, { nil: undefined })

/** Non-overlapping intervals: sorted distinct day offsets paired up as [start, end). */
const intervals = (currency: string): fc.Arbitrary<ReadonlyArray<Interval>> =>
  fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 8 }).chain((days) => {
    const sorted = [...days].sort((a, b) => a - b)
    const pairs = Array.from({ length: Math.floor(sorted.length / 2) }, (_, i) => [sorted[2 * i], sorted[2 * i + 1]] as const)
    return fc.tuple(...pairs.map(([start, end]) =>
      fc.record({
        id: fc.constant(`i${start}`),
        startDate: fc.constant(addDays(ORIGIN, start)),
        endDate: fc.constant(addDays(ORIGIN, end)),
        prices: fc.record({ mon: maybe(money(currency, 500)), fri: maybe(money(currency, 500)), sat: maybe(money(currency, 500)), sun: maybe(money(currency, 500)) }, { requiredKeys: [] }),
        extraGuestCharge: maybe(money(currency, 50)),
        singleGuestDiscount: maybe(money(currency, 50)),
        stopSell: fc.boolean(),
        minStay: maybe(fc.integer({ min: 1, max: 5 }))
      }, { requiredKeys: ["id", "startDate", "endDate"] })
    ))
  })

const ratePlan = (currency: string): fc.Arbitrary<RatePlan> =>
  fc.record({
    basePrice: money(currency, 500),
    extraGuestCharge: money(currency, 50),
    discountType: fc.constantFrom("fixed" as const, "percent" as const),
    fixedDiscount: money(currency, 150),
    percentDiscount: percent,
    intervals: intervals(currency),
    derivations: fc.array(fc.record({ type: fc.constantFrom("percent" as const, "fixed" as const, "perPerson" as const), value: signed }), { maxLength: 3 })
  }).map((g) => {
    const root = plan({
      currency,
      basePrice: g.basePrice,
      extraGuestCharge: g.extraGuestCharge,
      singleGuestDiscountType: g.discountType,
      singleGuestDiscount: g.discountType === "fixed" ? g.fixedDiscount : g.percentDiscount,
      intervals: g.intervals
    })
    return g.derivations.reduce<RatePlan>((parent, step) => derived(parent, step.type, BigDecimal.format(step.value)), root)
  })

const taxes: fc.Arbitrary<ReadonlyArray<Tax>> = fc.subarray([
  { code: "VAT", name: "VAT", kind: "percent", value: BigDecimal.fromStringUnsafe("6"), appliesTo: "room" },
  { code: "AVAT", name: "Add-on VAT", kind: "percent", value: BigDecimal.fromStringUnsafe("13.5"), appliesTo: "addons" },
  { code: "STAY", name: "Stay fee", kind: "perStay", value: BigDecimal.fromStringUnsafe("3.33") },
  { code: "ECO", name: "Eco", kind: "perNight", value: BigDecimal.fromStringUnsafe("1.11"), maxNights: 3 },
  { code: "CITY", name: "City", kind: "perGuestPerNight", value: BigDecimal.fromStringUnsafe("2.05"), maxNights: 7, exemptUnderAge: 13 }
])

const addOns: fc.Arbitrary<ReadonlyArray<AddOn>> = fc.array(
  fc.record({
    service: fc.record({
      id: fc.constantFrom("a", "b"),
      name: fc.constantFrom("Breakfast", "Parking"),
      price: money("EUR", 80),
      pricingUnit: fc.constantFrom("perStay" as const, "perNight" as const, "perGuest" as const, "perGuestPerNight" as const),
      revenueCategory: fc.constant("fnb"),
      tax: maybe(fc.record({ kind: fc.constantFrom("percent" as const, "perStay" as const, "perNight" as const, "perGuestPerNight" as const), value: money("EUR", 10) }))
    }, { requiredKeys: ["id", "name", "price", "pricingUnit", "revenueCategory"] }),
    quantity: fc.integer({ min: 1, max: 5 })
  }),
  { maxLength: 3 }
)

const stayRequest: fc.Arbitrary<StayRequest> = fc.constantFrom(...CURRENCIES).chain((currency) =>
  fc.record({
    plan: ratePlan(currency),
    roomType: fc.integer({ min: 1, max: 3 }).map((base) => ({ baseOccupancy: base, maxOccupancy: 8 })),
    property: fc.record({ taxes, brackets: fc.constantFrom([], [{ maxAge: 2, extraGuestPercent: BigDecimal.fromStringUnsafe("0") }, { maxAge: 12, extraGuestPercent: BigDecimal.fromStringUnsafe("50") }]) })
      .map(({ brackets, taxes }): PricingProperty => ({
        baseCurrency: "EUR",
        exchangeRates: [{ currency: "JPY", rateToBase: BigDecimal.fromStringUnsafe("0.0062") }, { currency: "KWD", rateToBase: BigDecimal.fromStringUnsafe("2.98") }],
        ageBrackets: brackets,
        taxes
      })),
    start: fc.integer({ min: 0, max: 55 }),
    length: fc.integer({ min: 1, max: 10 }),
    party: fc.record({ adults: fc.integer({ min: 1, max: 4 }), childAges: maybe(fc.array(fc.integer({ min: 0, max: 17 }), { maxLength: 3 })), children: fc.integer({ min: 0, max: 2 }) }),
    addOns
  }).map(({ length, start, ...rest }) => ({ ...rest, checkIn: addDays(ORIGIN, start), checkOut: addDays(ORIGIN, start + length) }))
)

/** Everything observable about a quote's money, as text. */
const figures = (quote: Quote) => ({
  nights: quote.nights.map((n) => [n.date, Money.format(n.amount, quote.currency)]),
  lines: quote.lines.map((l) => [l.kind, l.description, Money.format(l.amount, quote.currency)]),
  taxes: quote.taxes.map((t) => [t.code, Money.format(t.amount, quote.currency)]),
  total: Money.format(quote.total, quote.currency)
})

/** The same plan chain with each level's intervals reordered by `keys`. */
const reorder = (p: RatePlan, keys: ReadonlyArray<number>): RatePlan => {
  const key = (i: number) => keys[i % keys.length] ?? i
  const intervals = p.intervals.map((interval, i) => [key(i) + i / 100, interval] as const).sort((a, b) => b[0] - a[0]).map(([, x]) => x)
  const derivation = p.derivation == null ? p.derivation : { ...p.derivation, parent: reorder(p.derivation.parent, keys.slice(1)) }
  return { ...p, intervals, derivation }
}

describe("pricing invariants", () => {
  it("total is the sum of the lines, every line rounded and never negative", () => {
    fc.assert(fc.property(stayRequest, (request) => {
      const quote = priceStay(request)
      const sum = Money.sum(quote.lines.map((l) => l.amount))
      expect(BigDecimal.equals(quote.total, sum)).toBe(true)
      expect(BigDecimal.equals(quote.roomRevenue, Money.sum(quote.lines.filter((l) => l.kind === "room").map((l) => l.amount)))).toBe(true)
      for (const line of quote.lines) {
        expect(BigDecimal.isNegative(line.amount)).toBe(false)
        expect(BigDecimal.equals(line.amount, Money.round(line.amount, quote.currency))).toBe(true)
      }
      expect(quote.nights.map((n) => n.amount)).toEqual(quote.lines.filter((l) => l.kind === "room").map((l) => l.amount))
      for (const night of quote.nights) expect(night.trace[night.trace.length - 1].amount).toBe(Money.format(night.amount, quote.currency))
    }), { numRuns: 300 })
  })

  it("a derived percent plan of 0 with its parent's guest figures prices exactly as its parent", () => {
    fc.assert(fc.property(stayRequest, (request) => {
      const { extraGuestCharge, singleGuestDiscount, singleGuestDiscountType, intervals } = request.plan
      const child = derived(request.plan, "percent", "0", { extraGuestCharge, singleGuestDiscount, singleGuestDiscountType, intervals })
      expect(figures(priceStay({ ...request, plan: child }))).toEqual(figures(priceStay(request)))
    }), { numRuns: 200 })
  })

  it("prices (and visibility) do not depend on the order intervals were created in", () => {
    fc.assert(fc.property(stayRequest, fc.array(fc.nat(), { minLength: 1, maxLength: 10 }), (request, keys) => {
      const shuffled = reorder(request.plan, keys)
      expect(figures(priceStay({ ...request, plan: shuffled }))).toEqual(figures(priceStay(request)))
      const visibility = { roomTypeId: "dbl", roomType: request.roomType, party: request.party, checkIn: request.checkIn, checkOut: request.checkOut, today: ORIGIN, salesContext: "back_office" as const }
      expect(planVisibility({ ...visibility, plan: shuffled })).toEqual(planVisibility({ ...visibility, plan: request.plan }))
    }), { numRuns: 200 })
  })
})
