import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as Option from "effect/Option"
import {
  cancellationTerms,
  daysBeforeArrival,
  policyFor,
  refundDueMinor,
  refundPercentFor,
  termInForce,
  tierInForce
} from "../../src/booking/cancellation/policy.js"
import type { CancellationTier } from "../../src/quotes/model.js"
import { localToday, startOfLocalDay } from "../../src/rates/visibility/localTime.js"
import { d, plan, property } from "../quotes/fixtures.js"

const tiers: ReadonlyArray<CancellationTier> = [
  { daysBeforeArrival: 2, refundPercent: 50 },
  { daysBeforeArrival: 7, refundPercent: 100 },
  { daysBeforeArrival: 0, refundPercent: 0 }
]

describe("tiers", () => {
  it("counts local calendar days before arrival", () => {
    expect(daysBeforeArrival("2026-12-01", "2026-12-08")).toBe(7)
    expect(daysBeforeArrival("2026-12-08", "2026-12-08")).toBe(0)
    expect(daysBeforeArrival("2026-12-09", "2026-12-08")).toBe(-1)
  })

  it("applies the tier with the largest days not above the actual days, at each boundary", () => {
    expect([30, 7, 6, 3, 2, 1, 0].map((days) => refundPercentFor(tiers, days))).toEqual([100, 100, 50, 50, 50, 0, 0])
    expect(Option.isNone(tierInForce(tiers, -1))).toBe(true)
    expect(refundPercentFor(tiers, -1)).toBe(0)
    expect(refundPercentFor([{ daysBeforeArrival: 7, refundPercent: 100 }], 6)).toBe(0)
    expect(refundPercentFor([], 100)).toBe(0)
  })

  it("uses the plan's policy over the property default", () => {
    const own = [{ daysBeforeArrival: 1, refundPercent: 80 }]
    expect(policyFor(plan({ cancellationPolicy: own }), property({ cancellationPolicy: tiers }))).toBe(own)
    expect(policyFor(plan(), property({ cancellationPolicy: tiers }))).toBe(tiers)
    expect(policyFor(plan(), property())).toEqual([])
  })

  it("computes the refund in minor units, rounded down", () => {
    expect(refundDueMinor(d("123.45"), "EUR", 50)).toBe(6172n) // 61.725
    expect(refundDueMinor(d("123.45"), "EUR", 100)).toBe(12345n)
    expect(refundDueMinor(d("12345"), "JPY", 33)).toBe(4073n) // 4073.85
    expect(refundDueMinor(d("10.005"), "KWD", 50)).toBe(5002n) // 5.0025
    expect(refundDueMinor(d("99.99"), "EUR", 0)).toBe(0n)
    expect(refundDueMinor(d("0"), "EUR", 100)).toBe(0n)
  })
})

describe("terms", () => {
  it("gives concrete deadlines at the start of the property's local day, in time order", () => {
    expect(cancellationTerms(tiers, "2026-12-10", "Europe/Lisbon")).toEqual([
      { until: "2026-12-04T00:00:00.000Z", refundPercent: 100 },
      { until: "2026-12-09T00:00:00.000Z", refundPercent: 50 },
      { until: null, refundPercent: 0 }
    ])
    expect(cancellationTerms(tiers, "2026-12-10", "America/New_York")[0].until).toBe("2026-12-04T05:00:00.000Z")
    expect(cancellationTerms(tiers, "2026-12-10", "Asia/Tokyo")[1].until).toBe("2026-12-08T15:00:00.000Z")
    expect(cancellationTerms([], "2026-12-10", "UTC")).toEqual([{ until: null, refundPercent: 0 }])
    // a last tier that still refunds ends the day after arrival begins
    expect(cancellationTerms([{ daysBeforeArrival: 0, refundPercent: 20 }], "2026-12-10", "UTC"))
      .toEqual([{ until: "2026-12-11T00:00:00.000Z", refundPercent: 20 }, { until: null, refundPercent: 0 }])
  })

  it("drops terms already over when given now, and finds the one in force", () => {
    const now = new Date("2026-12-05T12:00:00Z")
    const terms = cancellationTerms(tiers, "2026-12-10", "Europe/Lisbon", now)
    expect(terms).toEqual([{ until: "2026-12-09T00:00:00.000Z", refundPercent: 50 }, { until: null, refundPercent: 0 }])
    expect(termInForce(cancellationTerms(tiers, "2026-12-10", "Europe/Lisbon"), now).refundPercent).toBe(50)
    expect(termInForce(terms, new Date("2026-12-09T00:00:00Z"))).toEqual({ until: null, refundPercent: 0 })
    expect(termInForce(terms, new Date("2026-12-08T23:59:59.999Z")).refundPercent).toBe(50)
  })

  it("finds the start of days whose midnight is skipped or repeated by daylight saving", () => {
    // Santiago: 2026-09-06 00:00 → 01:00 (-03); 2026-04-05 00:00 → 2026-04-04 23:00 (-04)
    expect(startOfLocalDay("2026-09-06", "America/Santiago").toISOString()).toBe("2026-09-06T04:00:00.000Z")
    expect(startOfLocalDay("2026-04-05", "America/Santiago").toISOString()).toBe("2026-04-05T04:00:00.000Z")
    expect(startOfLocalDay("2026-03-29", "Europe/Lisbon").toISOString()).toBe("2026-03-29T00:00:00.000Z")
    expect(localToday(new Date("2026-12-31T23:30:00Z"), "Asia/Tokyo")).toBe("2027-01-01")
    expect(localToday(new Date("2027-01-01T03:00:00Z"), "America/Los_Angeles")).toBe("2026-12-31")
  })

  it("agrees with tierInForce at every instant (property)", () => {
    const zones = ["UTC", "Europe/Lisbon", "America/New_York", "Asia/Tokyo", "America/Santiago", "Pacific/Kiritimati", "Pacific/Pago_Pago"]
    const tierSet = fc.uniqueArray(
      fc.record({ daysBeforeArrival: fc.integer({ min: -2, max: 30 }), refundPercent: fc.integer({ min: 0, max: 100 }) }),
      { selector: (t) => t.daysBeforeArrival, maxLength: 5 }
    )
    fc.assert(
      fc.property(tierSet, fc.constantFrom(...zones), fc.integer({ min: 0, max: 60 * 24 * 40 }), (ts, zone, minutes) => {
        const checkIn = "2026-04-20"
        const now = new Date(Date.parse("2026-03-15T00:00:00Z") + minutes * 60_000)
        const expected = refundPercentFor(ts, daysBeforeArrival(localToday(now, zone), checkIn))
        const terms = cancellationTerms(ts, checkIn, zone)
        expect(termInForce(terms, now).refundPercent).toBe(expected)
        expect(cancellationTerms(ts, checkIn, zone, now)[0].refundPercent).toBe(expected)
        expect(terms[terms.length - 1].until).toBeNull()
      }),
      { numRuns: 500 }
    )
  })
})
