import { describe, expect, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import { allocateGuests, childSharePercent } from "../../src/quotes/guests.js"
import type { AgeBracket, Interval } from "../../src/quotes/model.js"
import { d, derived, fmt, nightAmounts, plan, property, stay } from "./fixtures.js"

// The demo property's brackets: under 3 free, 3 to 12 half, 13 and over as an adult.
const brackets: ReadonlyArray<AgeBracket> = [
  { maxAge: 12, extraGuestPercent: d("50") },
  { maxAge: 2, extraGuestPercent: d("0") }
]
const withBrackets = property({ ageBrackets: brackets })
const bar = plan({ extraGuestCharge: d("30.00") })
const big = { baseOccupancy: 2, maxOccupancy: 6 }
const oneNight = { checkIn: "2026-12-01", checkOut: "2026-12-02" }

describe("extra guests", () => {
  it("fills base occupancy with adults first, then children oldest first", () => {
    const guests = allocateGuests({ adults: 1, childAges: [1, 14, 5] }, big)
    expect(guests.children).toEqual([14, 5, 1])
    expect(guests.extraAdults).toBe(0)
    expect(guests.extraChildren).toEqual([5, 1])
    expect(allocateGuests({ adults: 3, children: 2 }, big)).toMatchObject({ total: 5, extraAdults: 1, extraChildren: [null, null] })
    // child_ages is authoritative over children
    expect(allocateGuests({ adults: 2, children: 5, childAges: [4] }, big).total).toBe(3)
  })

  it("picks the first bracket (by max age) that holds the age; older than all pays 100%", () => {
    // Compared as numbers: a BigDecimal caches its normalized form on first use, so a shared constant and a
    // fresh value of the same number need not be structurally equal.
    const share = (age: number | null, of = brackets) => BigDecimal.format(childSharePercent(of, age))
    expect(share(0)).toBe(BigDecimal.format(d("0")))
    expect(share(2)).toBe(BigDecimal.format(d("0")))
    expect(share(3)).toBe(BigDecimal.format(d("50")))
    expect(share(12)).toBe(BigDecimal.format(d("50")))
    expect(share(13)).toBe(BigDecimal.format(d("100")))
    expect(share(null)).toBe(BigDecimal.format(d("100")))
    expect(share(4, [])).toBe(BigDecimal.format(d("100")))
  })

  it("charges each extra adult the plan's figure per night", () => {
    const quote = stay({ plan: bar, roomType: big, party: { adults: 4 } })
    expect(nightAmounts(quote)).toEqual(["160.00", "160.00", "160.00"])
    expect(quote.nights[0].trace[1]).toMatchObject({ step: "extra_guest", amount: "160.00" })
  })

  it("charges extra children their bracket's share", () => {
    // 2 adults fill the base; children 14 (100% = 30), 5 (50% = 15), 1 (0%)
    expect(nightAmounts(stay({ plan: bar, roomType: big, property: withBrackets, party: { adults: 2, childAges: [5, 1, 14] }, ...oneNight })))
      .toEqual(["145.00"])
    // 1 adult: the 14-year-old fills the base; extras 5 (15) and 1 (0)
    expect(nightAmounts(stay({ plan: bar, roomType: big, property: withBrackets, party: { adults: 1, childAges: [5, 1, 14] }, ...oneNight })))
      .toEqual(["115.00"])
    // children without ages pay as adults
    expect(nightAmounts(stay({ plan: bar, roomType: big, property: withBrackets, party: { adults: 2, children: 1 }, ...oneNight })))
      .toEqual(["130.00"])
  })

  it("lets an interval's figure above 0.00 override the plan's for its nights only", () => {
    const seasonal = plan({
      extraGuestCharge: d("30.00"),
      intervals: [
        { startDate: "2026-12-01", endDate: "2026-12-02", extraGuestCharge: d("40.00") },
        { startDate: "2026-12-02", endDate: "2026-12-03", extraGuestCharge: d("0.00") }
      ]
    })
    expect(nightAmounts(stay({ plan: seasonal, roomType: big, party: { adults: 3 } }))).toEqual(["140.00", "130.00", "130.00"])
  })

  it("charges a derived plan's own figure (own interval, then own plan), never its parent's; not derived", () => {
    const parent = plan({
      id: "parent",
      extraGuestCharge: d("30.00"),
      intervals: [{ startDate: "2026-12-01", endDate: "2026-12-02", extraGuestCharge: d("40.00") }]
    })
    const party = { adults: 3 }
    // own figure 0: the extra adult pays nothing, whatever the parent (or its interval) charges
    expect(nightAmounts(stay({ plan: derived(parent, "percent", "-10"), roomType: big, party }))).toEqual(["90.00", "90.00", "90.00"])
    // own figure 25 wins over the parent's interval
    expect(nightAmounts(stay({ plan: derived(parent, "percent", "-10", { extraGuestCharge: d("25.00") }), roomType: big, party })))
      .toEqual(["115.00", "115.00", "115.00"])
    // own interval override beats everything for its nights
    const ownInterval: Interval = { startDate: "2026-12-02", endDate: "2026-12-03", extraGuestCharge: d("50.00") }
    expect(nightAmounts(stay({ plan: derived(parent, "percent", "-10", { extraGuestCharge: d("25.00"), intervals: [ownInterval] }), roomType: big, party })))
      .toEqual(["115.00", "140.00", "115.00"])
  })
})

describe("single-guest discount", () => {
  it("fixed: takes the amount off each night", () => {
    const quote = stay({ plan: plan({ singleGuestDiscount: d("20.00") }), party: { adults: 1 } })
    expect(nightAmounts(quote)).toEqual(["80.00", "80.00", "80.00"])
    expect(quote.nights[0].trace[1]).toEqual({ step: "single_guest_discount", amount: "80.00", detail: "fixed: -20.00" })
    // a party of two gets nothing
    expect(nightAmounts(stay({ plan: plan({ singleGuestDiscount: d("20.00") }), party: { adults: 2 } }))[0]).toBe("100.00")
    // a lone child is a party of one too
    expect(nightAmounts(stay({ plan: plan({ singleGuestDiscount: d("20.00") }), party: { adults: 0, childAges: [15] } }))[0]).toBe("80.00")
  })

  it("percent: takes that share of the nightly price", () => {
    const p = plan({ singleGuestDiscount: d("15"), singleGuestDiscountType: "percent", intervals: [{ startDate: "2026-12-02", endDate: "2026-12-03", prices: { wed: d("200.00") } }] })
    expect(nightAmounts(stay({ plan: p, party: { adults: 1 } }))).toEqual(["85.00", "170.00", "85.00"])
    // 12.5% of 99.99 = 12.49875 → 87.49125 → 87.49
    expect(nightAmounts(stay({ plan: plan({ basePrice: d("99.99"), singleGuestDiscount: d("12.5"), singleGuestDiscountType: "percent" }), party: { adults: 1 }, ...oneNight })))
      .toEqual(["87.49"])
  })

  it("uses an interval override, keeps the owner's type, and never goes below zero", () => {
    const p = plan({ singleGuestDiscount: d("10.00"), intervals: [{ startDate: "2026-12-01", endDate: "2026-12-02", singleGuestDiscount: d("30.00") }] })
    expect(nightAmounts(stay({ plan: p, party: { adults: 1 } }))).toEqual(["70.00", "90.00", "90.00"])
    // a parent's discount is the parent's: its promotion gives only its own (none here, then 10 percent of 90)
    const parent = plan({ singleGuestDiscount: d("10"), singleGuestDiscountType: "percent" })
    expect(nightAmounts(stay({ plan: derived(parent, "percent", "-10"), party: { adults: 1 }, ...oneNight }))).toEqual(["90.00"])
    const ownPercent = { singleGuestDiscount: d("10"), singleGuestDiscountType: "percent" as const }
    expect(nightAmounts(stay({ plan: derived(parent, "percent", "-10", ownPercent), party: { adults: 1 }, ...oneNight })))
      .toEqual(["81.00"])
    expect(nightAmounts(stay({ plan: plan({ singleGuestDiscount: d("150.00") }), party: { adults: 1 }, ...oneNight }))).toEqual(["0.00"])
  })

  it("room revenue is the sum of the nights", () => {
    const quote = stay({ plan: bar, roomType: big, property: withBrackets, party: { adults: 2, childAges: [7] } })
    expect(fmt(quote.roomRevenue)).toBe("345.00")
    expect(fmt(quote.total)).toBe("345.00")
  })
})
