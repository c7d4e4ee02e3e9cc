import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as BigDecimal from "effect/BigDecimal"
import { keptNights, reversalLines, samePrice, type StayLine } from "../../src/changes/pricing.js"
import { difference, loyaltyDifference, settleChange } from "../../src/changes/settlement.js"
import type { StayTerms } from "../../src/changes/target.js"
import { d, fmt, plan, property, stay } from "../quotes/fixtures.js"

const current: StayTerms = {
  roomTypeId: "dbl",
  ratePlanId: "bar",
  checkIn: "2026-12-01",
  checkOut: "2026-12-04",
  adults: 2,
  children: 0,
  childAges: null,
  promoCode: null,
  specialNotes: null
}

const room = (night: string, amount: string): StayLine => ({
  id: `line-${night}`,
  kind: "room",
  description: `Room ${night}`,
  amount: d(amount),
  revenueCategory: "room",
  serviceId: null,
  quantity: 1,
  night
})
const booked = [room("2026-12-01", "100.00"), room("2026-12-02", "110.00"), room("2026-12-03", "120.00")]
const tax: StayLine = { ...room("2026-12-01", "19.80"), id: "tax", kind: "tax", description: "VAT", night: null, revenueCategory: null }

const keptOf = (change: Partial<StayTerms>) =>
  [...keptNights(current, { ...current, ...change }, [...booked, tax])].map(([night, amount]) => [night, fmt(amount)])

describe("keptNights: a night keeps its booked amount only with the same date, room type, plan and party", () => {
  it.each([
    ["a night more", { checkOut: "2026-12-05" }, [["2026-12-01", "100.00"], ["2026-12-02", "110.00"], ["2026-12-03", "120.00"]]],
    ["a day later", { checkIn: "2026-12-02", checkOut: "2026-12-05" }, [["2026-12-02", "110.00"], ["2026-12-03", "120.00"]]],
    ["other dates entirely", { checkIn: "2026-12-10", checkOut: "2026-12-12" }, []],
    ["another room type", { roomTypeId: "ste" }, []],
    ["another plan", { ratePlanId: "flex" }, []],
    ["another party", { adults: 1 }, []],
    ["children with ages", { children: 1, childAges: [5] }, []],
    ["only the promo code", { promoCode: "X" }, [["2026-12-01", "100.00"], ["2026-12-02", "110.00"], ["2026-12-03", "120.00"]]]
  ] as const)("%s", (_, change, expected) => {
    expect(keptOf(change)).toEqual(expected)
  })

  it("the engine prices kept nights at their booked amount and levies taxes on them", () => {
    const kept = new Map([["2026-12-01", d("80.00")]])
    const quote = stay({
      plan: plan({ basePrice: d("100.00") }),
      property: property({ taxes: [{ code: "VAT", name: "VAT", kind: "percent", value: d("10"), appliesTo: "room" }] }),
      keptNights: kept
    })
    expect(quote.lines.map((l) => [l.kind, fmt(l.amount)])).toEqual([
      ["room", "80.00"], ["room", "100.00"], ["room", "100.00"], ["tax", "28.00"]
    ])
    expect(fmt(quote.total)).toBe("308.00")
    expect(fmt(quote.nightlyRate)).toBe("93.33")
  })
})

describe("reversal lines", () => {
  it("one per priced line: its amount negated, `Reversal: ` and its description, naming the line", () => {
    const lines = reversalLines([booked[0], tax])
    expect(lines.map((l) => [l.kind, l.description, fmt(l.amount), l.reverses, l.night])).toEqual([
      ["reversal", "Reversal: Room 2026-12-01", "-100.00", "line-2026-12-01", "2026-12-01"],
      ["reversal", "Reversal: VAT", "-19.80", "tax", null]
    ])
  })

  it("reversals and the previous lines always add up to zero (property)", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -100_000, max: 100_000 }), { maxLength: 40 }), (cents) => {
      const lines = cents.map((c, i) => ({ ...tax, id: `l${i}`, amount: BigDecimal.make(BigInt(c), 2) }))
      const sum = [...lines, ...reversalLines(lines)].reduce((acc, l) => BigDecimal.sum(acc, l.amount), d("0"))
      return BigDecimal.isZero(sum)
    }))
  })

  it("the same lines in the same order are the same price", () => {
    const lines = booked.map((l) => ({ kind: l.kind, description: l.description, amount: l.amount, revenueCategory: l.revenueCategory }))
    expect(samePrice(booked, lines)).toBe(true)
    expect(samePrice(booked, lines.slice(1))).toBe(false)
    expect(samePrice(booked, [{ ...lines[0], amount: d("100.01") }, lines[1], lines[2]])).toBe(false)
  })
})

describe("settleChange: the money of a change", () => {
  const tiers = [{ daysBeforeArrival: 7, refundPercent: 100 }, { daysBeforeArrival: 2, refundPercent: 50 }]
  const base = { tiers, checkIn: "2031-03-10", timeZone: "Europe/Lisbon", currency: "EUR" }
  const settle = (step: "hold" | "confirmed", total: string, paid: string, now: string) => {
    const s = settleChange({ ...base, step, total: d(total), paid: d(paid), now: new Date(now) })
    return [fmt(s.amountDue), Number(s.refundDueMinor), fmt(s.changeFee), s.refundPercent]
  }
  it.each([
    ["a hold owes and is owed nothing", "hold", "500.00", "0", "2031-03-01T10:00:00Z", ["0.00", 0, "0.00", 0]],
    ["more than paid: the difference is due", "confirmed", "500.00", "400.00", "2031-03-01T10:00:00Z", ["100.00", 0, "0.00", 0]],
    ["exactly paid", "confirmed", "400.00", "400.00", "2031-03-01T10:00:00Z", ["0.00", 0, "0.00", 0]],
    ["less, 100% tier: all refunded", "confirmed", "300.00", "400.00", "2031-03-01T10:00:00Z", ["0.00", 10000, "0.00", 100]],
    ["less, 50% tier: half refunded, half a fee", "confirmed", "300.00", "400.01", "2031-03-06T10:00:00Z", ["0.00", 5000, "50.01", 50]],
    ["less, no tier: all kept as a fee", "confirmed", "300.00", "400.00", "2031-03-09T10:00:00Z", ["0.00", 0, "100.00", 0]]
  ] as const)("%s", (_, step, total, paid, now, expected) => {
    expect(settle(step, total, paid, now)).toEqual(expected)
  })

  it("difference is signed", () => {
    expect(fmt(difference(d("300.00"), d("400.00")))).toBe("-100.00")
  })

  it.each([
    ["USD, more revenue", "USD", "390.00", 2600, 1300],
    ["USD, less revenue", "USD", "130.00", 3900, -2600],
    ["USD, after a cancel reversed it", "USD", "130.00", 0, 1300],
    ["another currency earns nothing", "EUR", "390.00", 0, 0]
  ] as const)("loyalty difference: %s", (_, currency, revenue, net, expected) => {
    expect(loyaltyDifference(currency, d(revenue), 10, net)).toBe(expected)
  })
})
