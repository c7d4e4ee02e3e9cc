import { describe, expect, it } from "@effect/vitest"
import { addDays, daysBetween, nightsOf, weekdayOf } from "../../src/quotes/dates.js"
import type { Interval, WeekdayPrices } from "../../src/quotes/model.js"
import { nightlyPrice } from "../../src/quotes/nightly.js"
import { d, derived, fmt, nightAmounts, plan, room, stay } from "./fixtures.js"

const everyDay = (price: string): WeekdayPrices => ({
  mon: d(price), tue: d(price), wed: d(price), thu: d(price), fri: d(price), sat: d(price), sun: d(price)
})

describe("dates", () => {
  it("counts nights, weekdays and day differences in UTC", () => {
    expect(nightsOf("2026-12-30", "2027-01-02")).toEqual(["2026-12-30", "2026-12-31", "2027-01-01"])
    expect(nightsOf("2026-12-03", "2026-12-03")).toEqual([])
    expect(weekdayOf("2026-12-03")).toBe("thu")
    expect(weekdayOf("2026-12-06")).toBe("sun")
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29")
    expect(daysBetween("2026-03-28", "2026-03-30")).toBe(2) // across a DST change anywhere
    expect(daysBetween("2026-12-08", "2026-12-01")).toBe(-7)
  })
})

describe("nightly price from intervals", () => {
  it("uses the interval's weekday price when set, the base price otherwise (across a weekend)", () => {
    const weekend: Interval = { name: "Winter weekends", startDate: "2026-12-01", endDate: "2026-12-15", prices: { fri: d("150.00"), sat: d("160.00") } }
    // Thu 3, Fri 4, Sat 5, Sun 6 December 2026
    const quote = stay({ plan: plan({ intervals: [weekend] }), checkIn: "2026-12-03", checkOut: "2026-12-07" })
    expect(nightAmounts(quote)).toEqual(["100.00", "150.00", "160.00", "100.00"])
    expect(fmt(quote.roomRevenue)).toBe("510.00")
    expect(quote.nights[1].trace).toEqual([
      { step: "interval", amount: "150.00", detail: "Winter weekends (fri)" },
      // A rounding that changed nothing carries no detail.
      { step: "rounding", amount: "150.00" }
    ])
    expect(quote.nights[0].trace[0]).toMatchObject({ step: "base", amount: "100.00" })
  })

  it("switches season on the night an interval ends and the next begins, then falls back to base", () => {
    const low: Interval = { startDate: "2026-12-01", endDate: "2026-12-10", prices: everyDay("120.00") }
    const high: Interval = { startDate: "2026-12-10", endDate: "2026-12-12", prices: everyDay("140.00") }
    const quote = stay({ plan: plan({ intervals: [high, low] }), checkIn: "2026-12-08", checkOut: "2026-12-13" })
    expect(nightAmounts(quote)).toEqual(["120.00", "120.00", "140.00", "140.00", "100.00"])
    expect(fmt(quote.total)).toBe("620.00")
    expect(fmt(quote.nightlyRate)).toBe("124.00")
  })
})

describe("derivation chains over seasonal prices", () => {
  const root = plan({ id: "root", intervals: [{ startDate: "2026-12-01", endDate: "2026-12-03", prices: everyDay("200.00") }] })
  // Nights: 1 and 2 December in season (200.00), 3 December off season (100.00).
  const nights = (p: typeof root, adults = 2) =>
    nightAmounts(stay({ plan: p, checkIn: "2026-12-01", checkOut: "2026-12-04", party: { adults }, roomType: { baseOccupancy: 3, maxOccupancy: 3 } }))

  it("percent: multiplies by (1 + v/100) at every level", () => {
    const chain = derived(derived(derived(root, "percent", "-10"), "percent", "5"), "percent", "-20")
    // 200 → 180 → 189 → 151.20 ; 100 → 90 → 94.50 → 75.60
    expect(nights(chain)).toEqual(["151.20", "151.20", "75.60"])
  })

  it("fixed: adds v per night at every level", () => {
    const chain = derived(derived(derived(root, "fixed", "-15"), "fixed", "5.50"), "fixed", "-20")
    // 200 → 185 → 190.50 → 170.50 ; 100 → 85 → 90.50 → 70.50
    expect(nights(chain)).toEqual(["170.50", "170.50", "70.50"])
  })

  it("perPerson: adds v per guest per night at every level", () => {
    const chain = derived(derived(derived(root, "perPerson", "10"), "perPerson", "-5"), "perPerson", "2")
    // 3 guests: 200 → 230 → 215 → 221 ; 100 → 130 → 115 → 121
    expect(nights(chain, 3)).toEqual(["221.00", "221.00", "121.00"])
  })

  it("mixes types and traces every step with the running price", () => {
    const chain = derived(derived(derived(root, "percent", "-10"), "fixed", "-5"), "perPerson", "1.25")
    // 200 → 180 → 175 → 177.50 (2 guests)
    const quote = stay({ plan: chain, checkIn: "2026-12-01", checkOut: "2026-12-02" })
    expect(quote.nights[0].trace.map((t) => [t.step, t.amount])).toEqual([
      ["interval", "200.00"], ["derivation", "180.00"], ["derivation", "175.00"], ["derivation", "177.50"], ["rounding", "177.50"]
    ])
  })

  it("never goes below zero, at any level", () => {
    const chain = derived(derived(root, "fixed", "-250"), "fixed", "20")
    expect(nights(chain)).toEqual(["20.00", "20.00", "20.00"])
    expect(nightlyPrice(derived(root, "percent", "-150"), "2026-12-01", 2).amount).toEqual(d("0"))
  })

  it("ignores weekday prices on a derived plan's own intervals", () => {
    const child = derived(root, "percent", "-10", { intervals: [{ startDate: "2026-12-01", endDate: "2026-12-31", prices: everyDay("1.00") }] })
    expect(nights(child)).toEqual(["180.00", "180.00", "90.00"])
  })

  it("rounds each night half away from zero only once, after the chain", () => {
    const base = plan({ basePrice: d("99.99") })
    // 99.99 × 0.9 = 89.991 → × 1.05 = 94.49055 → 94.49
    expect(nightAmounts(stay({ plan: derived(derived(base, "percent", "-10"), "percent", "5"), checkOut: "2026-12-02" })))
      .toEqual(["94.49"])
    // 10.01 × 1.5 = 15.015 → 15.02 (half away from zero)
    expect(nightAmounts(stay({ plan: derived(plan({ basePrice: d("10.01") }), "percent", "50"), checkOut: "2026-12-02", roomType: room })))
      .toEqual(["15.02"])
  })

  it("says how it rounded only on a night the rounding changed", () => {
    const quote = stay({ plan: derived(plan({ basePrice: d("10.01") }), "percent", "50"), checkOut: "2026-12-02" })
    expect(quote.nights[0].trace.slice(-2)).toEqual([
      { step: "derivation", amount: "15.02", detail: "plan bar>percent50: 50%" },
      // 10.01 x 1.5 = 15.015: the derivation step shows it at EUR's digits, the rounding says where it started
      { step: "rounding", amount: "15.02", detail: "15.015 rounded half away from zero to EUR minor units" }
    ])
  })
})
