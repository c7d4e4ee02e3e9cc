// The engine's shortcuts must not change a price: a night priced without its trace, or through a request's
// memo (a parent's night priced once for all its derived plans), gives exactly what the plain path gives.
import { describe, expect, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as fc from "fast-check"
import * as Money from "../../src/money/Money.js"
import { addDays, toEpochDay } from "../../src/quotes/dates.js"
import { makePricingMemo } from "../../src/quotes/memo.js"
import type { Interval, Party, PricingProperty, RatePlan } from "../../src/quotes/model.js"
import { nightlyPrice, priceNight } from "../../src/quotes/nightly.js"
import { allocateGuests } from "../../src/quotes/guests.js"
import { priceStay, type Quote, type StayRequest } from "../../src/quotes/quote.js"
import { d, derived, plan, property, room } from "./fixtures.js"

const ORIGIN = "2026-11-20"
const CURRENCIES = ["EUR", "JPY", "KWD"] as const

/** Everything in a quote, amounts as value and scale (so even a different scale of an equal amount shows). */
const exactly = (quote: Quote): string =>
  JSON.stringify(quote, (_, v: unknown) => BigDecimal.isBigDecimal(v) ? `${v.value}e-${v.scale}` : v)

const money = (maxMinor: number, scale: number) => fc.integer({ min: 0, max: maxMinor }).map((n) => BigDecimal.make(BigInt(n), scale))
const maybe = <A>(arb: fc.Arbitrary<A>) => fc.option(arb, { nil: undefined })

const intervals: fc.Arbitrary<ReadonlyArray<Interval>> = fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 6 })
  .chain((days) => {
    const sorted = [...days].sort((a, b) => a - b)
    return fc.tuple(...Array.from({ length: Math.floor(sorted.length / 2) }, (_, i) =>
      fc.record({
        id: fc.constant(`i${i}`),
        startDate: fc.constant(addDays(ORIGIN, sorted[2 * i])),
        endDate: fc.constant(addDays(ORIGIN, sorted[2 * i + 1])),
        prices: fc.record({ fri: maybe(money(50000, 2)), sat: maybe(money(50000, 3)), tue: maybe(money(50000, 0)) }, { requiredKeys: [] }),
        extraGuestCharge: maybe(money(5000, 2)),
        singleGuestDiscount: maybe(money(5000, 2))
      }, { requiredKeys: ["id", "startDate", "endDate"] })))
  })

const step = fc.record({
  parent: fc.nat(),
  type: fc.constantFrom("percent" as const, "fixed" as const, "perPerson" as const),
  // Signed, with more decimals than any currency: the chain stays exact until the night is rounded.
  value: fc.integer({ min: -50000, max: 50000 }).map((n) => BigDecimal.format(BigDecimal.make(BigInt(n), 3))),
  extraGuestCharge: money(5000, 2),
  singleGuestDiscount: money(5000, 2),
  discountType: fc.constantFrom("fixed" as const, "percent" as const)
})

/** A root plan and plans derived from any earlier one: a tree whose parents are shared by several children. */
const family = (currency: string): fc.Arbitrary<ReadonlyArray<RatePlan>> =>
  fc.record({ base: money(50000, 2), extra: money(5000, 2), single: money(3000, 2), intervals, steps: fc.array(step, { maxLength: 10 }) })
    .map(({ base, extra, intervals, single, steps }) =>
      steps.reduce<ReadonlyArray<RatePlan>>(
        (plans, s, i) => [...plans, derived(plans[s.parent % plans.length], s.type, s.value, {
          id: `p${i + 1}`,
          extraGuestCharge: s.extraGuestCharge,
          singleGuestDiscount: s.singleGuestDiscount,
          singleGuestDiscountType: s.discountType
        })],
        [plan({ id: "p0", currency, basePrice: base, extraGuestCharge: extra, singleGuestDiscount: single, intervals })]
      ))

const party: fc.Arbitrary<Party> = fc.record({
  adults: fc.integer({ min: 1, max: 4 }),
  childAges: maybe(fc.array(fc.integer({ min: 0, max: 17 }), { maxLength: 3 }))
})

const stayProperty: PricingProperty = property({
  exchangeRates: [{ currency: "JPY", rateToBase: d("0.0062") }, { currency: "KWD", rateToBase: d("2.98") }],
  ageBrackets: [{ maxAge: 2, extraGuestPercent: d("0") }, { maxAge: 12, extraGuestPercent: d("50") }],
  taxes: [
    { code: "VAT", name: "VAT", kind: "percent", value: d("6") },
    { code: "CITY", name: "City", kind: "perGuestPerNight", value: d("2.05"), maxNights: 7, exemptUnderAge: 13 }
  ]
})

/** One request's work: plans of a family priced for one stay, for several parties, with and without trace. */
const requestOf = fc.constantFrom(...CURRENCIES).chain((currency) =>
  fc.record({
    plans: family(currency),
    parties: fc.array(party, { minLength: 1, maxLength: 3 }),
    start: fc.integer({ min: 0, max: 35 }),
    length: fc.integer({ min: 1, max: 10 }),
    // Which plan, party and trace setting each quote of the request uses, in order.
    quotes: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), { minLength: 1, maxLength: 25 })
  }))

const requestFor = (stay: { readonly start: number; readonly length: number }, plan: RatePlan, party: Party): StayRequest => ({
  plan,
  roomType: room,
  property: stayProperty,
  checkIn: addDays(ORIGIN, stay.start),
  checkOut: addDays(ORIGIN, stay.start + stay.length),
  party
})

describe("pricing without trace and through a request's memo", () => {
  it("a quote without trace has the same amounts, lines, taxes and totals, and empty traces", () => {
    fc.assert(fc.property(requestOf, (request) => {
      for (const [p, g] of request.quotes) {
        const stay = requestFor(request, request.plans[p % request.plans.length], request.parties[g % request.parties.length])
        const traced = priceStay(stay)
        const untraced = priceStay({ ...stay, trace: false })
        const withoutTrace = { ...traced, nights: traced.nights.map((night) => ({ ...night, trace: [] })) }
        expect(exactly(untraced)).toBe(exactly(withoutTrace))
        expect(exactly(priceStay({ ...stay, trace: true }))).toBe(exactly(traced))
        for (const night of traced.nights) {
          expect(night.trace.at(-1)?.amount).toBe(Money.format(night.amount, traced.currency))
        }
      }
    }), { numRuns: 150 })
  })

  it("quotes sharing one memo (plans of a shared chain, several parties, both trace settings) equal plain quotes", () => {
    fc.assert(fc.property(requestOf, (request) => {
      const memo = makePricingMemo()
      for (const [p, g, trace] of request.quotes) {
        const stay = requestFor(request, request.plans[p % request.plans.length], request.parties[g % request.parties.length])
        expect(exactly(priceStay({ ...stay, trace, memo }))).toBe(exactly(priceStay({ ...stay, trace })))
      }
    }), { numRuns: 200 })
  })

  it("priceNight and nightlyPrice through a memo equal the plain ones", () => {
    fc.assert(fc.property(requestOf, (request) => {
      const memo = makePricingMemo()
      for (const [p, g, trace] of request.quotes) {
        const model = request.plans[p % request.plans.length]
        const guests = allocateGuests(request.parties[g % request.parties.length], room)
        const date = addDays(ORIGIN, request.start + (p % request.length))
        expect(nightlyPrice(model, date, guests.total, { trace, memo })).toEqual(nightlyPrice(model, date, guests.total, { trace }))
        expect(priceNight(model, date, guests, stayProperty.ageBrackets, { trace, memo }))
          .toEqual(priceNight(model, date, guests, stayProperty.ageBrackets, { trace }))
      }
    }), { numRuns: 100 })
  })
})

describe("the request's memo", () => {
  const root = plan({ id: "root" })
  const child = derived(root, "percent", "-10")
  const grandchild = derived(child, "fixed", "-5")
  const request: StayRequest = { plan: grandchild, roomType: room, property: property(), checkIn: "2026-12-01", checkOut: "2026-12-04", party: { adults: 2 } }

  it("holds each night of each plan of the chain once, per guest count and trace setting", () => {
    const memo = makePricingMemo()
    priceStay({ ...request, memo })
    priceStay({ ...request, plan: child, memo })
    priceStay({ ...request, plan: derived(root, "fixed", "7"), memo, trace: false })
    expect(memo.nightlyPrices(root, 2, true).size).toBe(3)
    expect(memo.nightlyPrices(child, 2, true).size).toBe(3)
    expect(memo.nightlyPrices(grandchild, 2, true).size).toBe(3)
    expect(memo.nightlyPrices(root, 2, false).size).toBe(3)
    expect(memo.nightlyPrices(child, 2, false).size).toBe(0)
    expect(memo.nightlyPrices(root, 3, true).size).toBe(0)
  })

  it("is where a derived plan finds its parent's night: a price put there is the one derived from", () => {
    const memo = makePricingMemo()
    memo.nightlyPrices(child, 2, false).set(toEpochDay("2026-12-02"), { amount: d("1000"), trace: [] })
    const quote = priceStay({ ...request, memo, trace: false })
    expect(quote.nights.map((night) => Money.format(night.amount, "EUR"))).toEqual(["85.00", "995.00", "85.00"])
    expect(memo.nightsOf(request.checkIn, request.checkOut)).toBe(memo.nightsOf(request.checkIn, request.checkOut))
  })
})
