import { describe, expect, it } from "@effect/vitest"
import * as Option from "effect/Option"
import * as fc from "fast-check"
import type { SalesContext } from "../../src/platform/ApiKey.js"
import type { CancellationTier, Party, RatePlan, Tax } from "../../src/quotes/model.js"
import { type Offer, offerFor, type OfferReason, termsFor, type TermsOf, withAvailability } from "../../src/quotes/offer.js"
import { priceStay } from "../../src/quotes/quote.js"
import { type StayQuery, stayRequestFor } from "../../src/quotes/stay.js"
import { listedReasons } from "../../src/rates/visibility/offerVisibility.js"
import { REASONS } from "../../src/rates/visibility/visibility.js"
import { catalogue, d, fmt, listedPlan, plan, property, roomType, type TestPlan, type TestRoomType } from "./fixtures.js"

const stay = (overrides: Partial<StayQuery> = {}): StayQuery => ({
  checkIn: "2026-12-01",
  checkOut: "2026-12-04",
  party: { adults: 2 },
  ...overrides
})

/** A fixed tax in the base currency: a plan in another currency needs the exchange rate to price the stay. */
const RESORT: Tax = { code: "RESORT", name: "Resort fee", kind: "perStay", value: d("5.00") }

const offer = (input: {
  readonly model?: RatePlan
  readonly roomTypeId?: string
  readonly stay?: StayQuery
  readonly salesContext?: SalesContext
  readonly available?: number
  readonly withTax?: boolean
  readonly termsOf?: TermsOf
} = {}): Option.Option<Offer<TestPlan, TestRoomType>> =>
  offerFor({
    snapshot: catalogue({
      roomTypes: [roomType("dbl"), roomType("suite")],
      pricing: property({ taxes: input.withTax === true ? [RESORT] : [] }),
      promoCodes: [{ id: "pc1", ratePlanId: "bar", code: "WINTER", isActive: true, redemptions: 0 }]
    }),
    plan: listedPlan(input.model ?? plan()),
    roomTypeId: input.roomTypeId ?? "dbl",
    stay: input.stay ?? stay(),
    salesContext: input.salesContext ?? "back_office",
    available: input.available ?? 3,
    pricing: { trace: false },
    ...(input.termsOf === undefined ? {} : { termsOf: input.termsOf })
  })

const reasonsOf = (found: Option.Option<Offer<TestPlan, TestRoomType>>) =>
  Option.match(found, { onNone: () => "hidden", onSome: (o) => o.reasons.join(",") })

describe("offerFor: hidden plans have no offer (rate_plan_not_found)", () => {
  it.each([
    { case: "no such room type", input: { roomTypeId: "loft" } },
    { case: "inactive plan", input: { model: plan({ isActive: false }) } },
    { case: "deleted plan", input: { model: plan({ deleted: true }) } },
    { case: "a plan of another room type", input: { roomTypeId: "suite" } },
    {
      case: "not sold to the booking engine",
      input: { model: plan({ activeForBookingEngine: false }), salesContext: "booking_engine" as const }
    },
    { case: "not sold to channels", input: { model: plan({ activeForChannels: false }), salesContext: "channel" as const } },
    {
      case: "hidden even when also sold out and unpriceable",
      input: { model: plan({ isActive: false, currency: "USD" }), available: 0, withTax: true }
    }
  ])("$case", ({ input }) => {
    expect(Option.isNone(offer(input))).toBe(true)
  })
})

describe("offerFor: the reasons of a visible offer", () => {
  it.each<{ case: string; input: Parameters<typeof offer>[0]; expected: string }>([
    { case: "bookable", input: {}, expected: "" },
    { case: "one room free", input: { available: 1 }, expected: "" },
    { case: "no room free", input: { available: 0 }, expected: "sold_out" },
    { case: "a negative count is none free", input: { available: -2 }, expected: "sold_out" },
    { case: "too short for the plan", input: { model: plan({ minLos: 4 }) }, expected: "min_stay" },
    { case: "party too large for the room", input: { stay: stay({ party: { adults: 5 } }) }, expected: "party_too_large" },
    { case: "code required, none sent", input: { model: plan({ requiresPromoCode: true }) }, expected: "promo_code_required" },
    {
      case: "code required, another sent",
      input: { model: plan({ requiresPromoCode: true }), stay: stay({ promoCode: "SUMMER" }) },
      expected: "promo_code_invalid"
    },
    {
      case: "code required, its code sent in any case",
      input: { model: plan({ requiresPromoCode: true }), stay: stay({ promoCode: "winter" }) },
      expected: ""
    },
    { case: "a code sent to a plan that needs none", input: { stay: stay({ promoCode: "NOPE" }) }, expected: "" },
    { case: "no exchange rate for the plan's currency", input: { model: plan({ currency: "USD" }), withTax: true }, expected: "currency_unavailable" },
    { case: "another currency, nothing to convert", input: { model: plan({ currency: "USD" }) }, expected: "" },
    {
      case: "all at once, in order: sold out, the rule's, then the currency",
      input: { model: plan({ currency: "USD", minLos: 4 }), available: 0, withTax: true, stay: stay({ party: { adults: 5 } }) },
      expected: "sold_out,party_too_large,min_stay,currency_unavailable"
    }
  ])("$case: [$expected]", ({ expected, input }) => {
    expect(reasonsOf(offer(input))).toBe(expected)
  })

  it("a bookable offer is the engine's quote of the plan, with its nights, terms and free rooms", () => {
    const found = Option.getOrThrow(offer({ model: plan({ cancellationPolicy: [{ daysBeforeArrival: 7, refundPercent: 100 }] }) }))
    const expected = priceStay(stayRequestFor(
      { property: { pricing: property() } },
      listedPlan(found.plan.model),
      found.roomType,
      stay(),
      { trace: false }
    ))
    expect(found.bookable).toBe(true)
    expect(found.available).toBe(3)
    expect(found.currency).toBe("EUR")
    expect(found.roomType.name).toBe("Room dbl")
    expect(Option.map(found.quote, (q) => fmt(q.total))).toEqual(Option.some(fmt(expected.total)))
    expect(found.nights.map((n) => fmt(n.amount))).toEqual(["100.00", "100.00", "100.00"])
    expect(found.cancellationTerms).toEqual([
      { until: "2026-11-25T00:00:00.000Z", refundPercent: 100 },
      { until: null, refundPercent: 0 }
    ])
  })

  it("an unpriceable stay has no quote but still shows its nights (a night never needs a conversion)", () => {
    const found = Option.getOrThrow(offer({ model: plan({ currency: "USD" }), withTax: true }))
    expect(Option.isNone(found.quote)).toBe(true)
    expect(found.bookable).toBe(false)
    expect(found.currency).toBe("USD")
    expect(found.nights.map((n) => [n.date, fmt(n.amount, "USD")])).toEqual([
      ["2026-12-01", "100.00"], ["2026-12-02", "100.00"], ["2026-12-03", "100.00"]
    ])
  })

  it("uses the request's terms when given (plans sharing a policy share them)", () => {
    const calls: Array<ReadonlyArray<CancellationTier>> = []
    const terms = [{ until: null, refundPercent: 0 }]
    const policy = [{ daysBeforeArrival: 3, refundPercent: 50 }]
    const found = Option.getOrThrow(offer({
      model: plan({ cancellationPolicy: policy }),
      termsOf: (tiers) => {
        calls.push(tiers)
        return terms
      }
    }))
    expect(found.cancellationTerms).toBe(terms)
    expect(calls).toEqual([policy])
  })
})

const party: fc.Arbitrary<Party> = fc.record({ adults: fc.integer({ min: 1, max: 6 }) })
const variant = fc.record({
  minLos: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  currency: fc.constantFrom("EUR", "USD"),
  requiresPromoCode: fc.boolean(),
  isActive: fc.boolean(),
  promoCode: fc.constantFrom(undefined, "WINTER", "SUMMER"),
  party,
  available: fc.integer({ min: -3, max: 5 }),
  withTax: fc.boolean()
})
const offerOf = (v: typeof variant extends fc.Arbitrary<infer A> ? A : never) =>
  offer({
    model: plan({
      currency: v.currency,
      requiresPromoCode: v.requiresPromoCode,
      isActive: v.isActive,
      ...(v.minLos === undefined ? {} : { minLos: v.minLos })
    }),
    stay: stay({ party: v.party, promoCode: v.promoCode ?? null }),
    available: v.available,
    withTax: v.withTax
  })
/** Every reason an offer may list, in the order it lists them. */
const ORDER: ReadonlyArray<OfferReason> = ["sold_out", ...listedReasons(REASONS), "currency_unavailable"]

describe("offerFor: properties", () => {
  it("bookable exactly when there is no reason; reasons are distinct, in the fixed order; free rooms never below 0", () => {
    fc.assert(fc.property(variant, (v) => {
      const found = offerOf(v)
      expect(Option.isSome(found)).toBe(v.isActive)
      if (Option.isNone(found)) return
      const o = found.value
      expect(o.bookable).toBe(o.reasons.length === 0)
      expect(o.reasons.includes("sold_out")).toBe(v.available < 1)
      expect(o.available).toBe(Math.max(0, v.available))
      expect(Option.isNone(o.quote)).toBe(o.reasons.includes("currency_unavailable"))
      expect([...o.reasons]).toEqual(ORDER.filter((r) => o.reasons.includes(r)))
    }))
  })
})

describe("withAvailability", () => {
  it("changes only sold_out, free rooms and bookable; the price is untouched", () => {
    fc.assert(fc.property(variant, fc.integer({ min: -3, max: 5 }), (v, now) => {
      const before = offerOf({ ...v, isActive: true })
      const o = Option.getOrThrow(before)
      const after = withAvailability(now)(o)
      expect(after.quote).toBe(o.quote)
      expect(after.nights).toBe(o.nights)
      expect(after.cancellationTerms).toBe(o.cancellationTerms)
      expect(after.available).toBe(Math.max(0, now))
      expect(after.reasons.filter((r) => r !== "sold_out")).toEqual(o.reasons.filter((r) => r !== "sold_out"))
      expect(after.reasons.includes("sold_out")).toBe(now < 1)
      expect(after.bookable).toBe(after.reasons.length === 0)
      // The same as pricing with that count in the first place.
      expect(after.reasons).toEqual(Option.getOrThrow(offerOf({ ...v, isActive: true, available: now })).reasons)
    }))
  })

  it.each([
    { case: "3 free, then none", from: 3, to: 0, expected: ["sold_out"], bookable: false },
    { case: "none free, then one", from: 0, to: 1, expected: [], bookable: true },
    { case: "none free, then a negative count", from: 0, to: -1, expected: ["sold_out"], bookable: false }
  ])("$case: $expected", ({ bookable, expected, from, to }) => {
    const after = withAvailability(to)(Option.getOrThrow(offer({ available: from })))
    expect(after.reasons).toEqual(expected)
    expect(after.bookable).toBe(bookable)
  })
})

describe("termsFor", () => {
  const source = { now: new Date("2026-11-20T12:00:00Z"), property: { timezone: "UTC" } }
  const tiers: ReadonlyArray<CancellationTier> = [
    { daysBeforeArrival: 14, refundPercent: 100 },
    { daysBeforeArrival: 7, refundPercent: 50 }
  ]

  it("cuts the policy at the stay's check-in in the property's zone and drops the deadlines already past", () => {
    expect(termsFor(source, { checkIn: "2026-12-01" })(tiers)).toEqual([
      { until: "2026-11-25T00:00:00.000Z", refundPercent: 50 },
      { until: null, refundPercent: 0 }
    ])
    expect(termsFor({ ...source, property: { timezone: "Europe/Brussels" } }, { checkIn: "2026-12-01" })(tiers)[0]).toEqual(
      { until: "2026-11-24T23:00:00.000Z", refundPercent: 50 }
    )
  })

  it("works a policy out once per request: the same tiers answer the same terms", () => {
    const termsOf = termsFor(source, { checkIn: "2026-12-01" })
    expect(termsOf(tiers)).toBe(termsOf(tiers))
    expect(termsOf([...tiers])).not.toBe(termsOf(tiers))
    expect(termsOf([...tiers])).toEqual(termsOf(tiers))
  })
})
