import { describe, expect, it } from "@effect/vitest"
import { MissingExchangeRate } from "../../src/quotes/fx.js"
import type { AddOn, Service, Tax } from "../../src/quotes/model.js"
import { d, derived, fmt, lineTriples, nightAmounts, plan, property, stay } from "./fixtures.js"

const VAT: Tax = { code: "VAT", name: "VAT", kind: "percent", value: d("6"), appliesTo: "room" }
const RESORT: Tax = { code: "RESORT", name: "Resort fee", kind: "perStay", value: d("5.00") }
const ECO: Tax = { code: "ECO", name: "Eco tax", kind: "perNight", value: d("2.00"), maxNights: 2 }
const CITY: Tax = { code: "CITY", name: "City tax", kind: "perGuestPerNight", value: d("2.00"), maxNights: 7, exemptUnderAge: 13 }
const ADDON_VAT: Tax = { code: "AVAT", name: "Add-on VAT", kind: "percent", value: d("10"), appliesTo: "addons" }
const room3 = { baseOccupancy: 4, maxOccupancy: 4 }

const service = (overrides: Partial<Service>): Service => ({
  id: "svc", name: "Service", price: d("10.00"), pricingUnit: "perStay", revenueCategory: "other", ...overrides
})

describe("taxes", () => {
  it("levies every kind, with caps and exemptions, one line each after the room nights", () => {
    const quote = stay({
      property: property({ taxes: [VAT, RESORT, ECO, CITY, ADDON_VAT] }),
      roomType: room3,
      party: { adults: 2, childAges: [5, 13] }
    })
    // room 3 × 100 = 300; VAT 6% = 18; resort 5 once; eco 2 × min(3, 2) = 4;
    // city 2 × (2 adults + the 13-year-old; the 5-year-old exempt) × 3 nights = 18; add-on VAT: no add-ons, no line
    expect(lineTriples(quote)).toEqual([
      ["room", "Room 2026-12-01", "100.00"], ["room", "Room 2026-12-02", "100.00"], ["room", "Room 2026-12-03", "100.00"],
      ["tax", "VAT", "18.00"], ["tax", "Resort fee", "5.00"], ["tax", "Eco tax", "4.00"], ["tax", "City tax", "18.00"]
    ])
    expect(quote.taxes.map((t) => [t.code, fmt(t.amount)])).toEqual([["VAT", "18.00"], ["RESORT", "5.00"], ["ECO", "4.00"], ["CITY", "18.00"]])
    expect(fmt(quote.total)).toBe("345.00")
    expect(fmt(quote.roomRevenue)).toBe("300.00")
  })

  it("caps per-guest-per-night at max nights and taxes children of unknown age", () => {
    const quote = stay({ property: property({ taxes: [CITY] }), roomType: room3, party: { adults: 1, children: 1 }, checkIn: "2026-12-01", checkOut: "2026-12-11" })
    // 2 guests × 7 nights (capped from 10) × 2.00
    expect(quote.taxes.map((t) => fmt(t.amount))).toEqual(["28.00"])
  })

  it("rounds a percent tax half away from zero", () => {
    // 3 × 100.05 = 300.15; 6% = 18.009 → 18.01
    const quote = stay({ plan: plan({ basePrice: d("100.05") }), property: property({ taxes: [VAT] }) })
    expect(fmt(quote.taxes[0].amount)).toBe("18.01")
  })
})

describe("add-ons", () => {
  const party = { adults: 2, childAges: [8] } // 3 guests, 3 nights
  const addOns: ReadonlyArray<AddOn> = [
    { service: service({ id: "park", name: "Parking", price: d("10.00"), pricingUnit: "perStay" }), quantity: 2 },
    { service: service({ id: "wifi", name: "Wifi", price: d("5.00"), pricingUnit: "perNight", tax: { kind: "perStay", value: d("1.00") } }), quantity: 1 },
    { service: service({ id: "drink", name: "Welcome drink", price: d("4.00"), pricingUnit: "perGuest", revenueCategory: "fnb", tax: { kind: "perNight", value: d("0.50") } }), quantity: 1 },
    { service: service({ id: "brk", name: "Breakfast", price: d("15.00"), pricingUnit: "perGuestPerNight", revenueCategory: "fnb", tax: { kind: "percent", value: d("13") } }), quantity: 1 },
    { service: service({ id: "spa", name: "Spa", price: d("1.00"), pricingUnit: "perStay", revenueCategory: "spa", tax: { kind: "perGuestPerNight", value: d("0.10") } }), quantity: 1 }
  ]

  it("prices every unit × quantity, each with its own tax line, after the room and its taxes", () => {
    const quote = stay({ property: property({ taxes: [VAT, ADDON_VAT] }), roomType: room3, party, addOns })
    expect(lineTriples(quote)).toEqual([
      ["room", "Room 2026-12-01", "100.00"], ["room", "Room 2026-12-02", "100.00"], ["room", "Room 2026-12-03", "100.00"],
      ["tax", "VAT", "18.00"],
      ["addon", "Parking x 2", "20.00"],
      ["addon", "Wifi", "15.00"], ["addon_tax", "Wifi tax", "1.00"],
      ["addon", "Welcome drink", "12.00"], ["addon_tax", "Welcome drink tax", "1.50"],
      ["addon", "Breakfast", "135.00"], ["addon_tax", "Breakfast tax", "17.55"],
      ["addon", "Spa", "1.00"], ["addon_tax", "Spa tax", "0.90"],
      // 10% of add-on revenue 20 + 15 + 12 + 135 + 1 = 183
      ["tax", "Add-on VAT", "18.30"]
    ])
    expect(quote.lines[4]).toMatchObject({ revenueCategory: "other", serviceId: "park", quantity: 2 })
    expect(quote.lines[9]).toMatchObject({ revenueCategory: "fnb", serviceId: "brk" })
    expect(fmt(quote.total)).toBe("540.25")
    expect(fmt(quote.roomRevenue)).toBe("300.00")
  })

  it("only adds lines: the quote without add-ons is a prefix of the folio with them", () => {
    const base = stay({ property: property({ taxes: [VAT, CITY, ADDON_VAT] }), roomType: room3, party })
    const withAddOns = stay({ property: property({ taxes: [VAT, CITY, ADDON_VAT] }), roomType: room3, party, addOns })
    expect(lineTriples(withAddOns).slice(0, base.lines.length)).toEqual(lineTriples(base))
  })
})

describe("currencies", () => {
  const rates = [{ currency: "USD", rateToBase: d("0.92") }, { currency: "JPY", rateToBase: d("0.0062") }, { currency: "KWD", rateToBase: d("2.98") }]

  it("converts base-currency fixed amounts into the stay currency and rounds per line", () => {
    const quote = stay({
      plan: plan({ currency: "USD" }),
      property: property({ exchangeRates: rates, taxes: [VAT, RESORT] }),
      addOns: [{ service: service({ name: "Breakfast", price: d("15.00"), pricingUnit: "perGuestPerNight" }), quantity: 1 }]
    })
    // resort 5.00 EUR / 0.92 = 5.4347… → 5.43 USD; breakfast 2 × 3 × 15 = 90 EUR / 0.92 = 97.826… → 97.83 USD
    expect(lineTriples(quote).slice(3)).toEqual([["tax", "VAT", "18.00"], ["tax", "Resort fee", "5.43"], ["addon", "Breakfast", "97.83"]])
    expect(quote.currency).toBe("USD")
    expect(quote.exchangeRate).toEqual(d("0.92"))
    expect(fmt(quote.total, "USD")).toBe("421.26")
  })

  it("JPY: no decimals, half away from zero", () => {
    const yen = plan({ currency: "JPY", basePrice: d("12345") })
    // 12345 × 0.9 = 11110.5 → 11111 per night; VAT 6% of 33333 = 1999.98 → 2000; resort 5 EUR / 0.0062 = 806.45… → 806
    const quote = stay({ plan: derived(yen, "percent", "-10"), property: property({ exchangeRates: rates, taxes: [VAT, RESORT] }) })
    expect(nightAmounts(quote)).toEqual(["11111", "11111", "11111"])
    expect(lineTriples(quote).slice(3)).toEqual([["tax", "VAT", "2000"], ["tax", "Resort fee", "806"]])
    expect(fmt(quote.total, "JPY")).toBe("36139")
    // 15% single discount of 12345 = 1851.75 → 10493.25 → 10493
    expect(nightAmounts(stay({ plan: plan({ currency: "JPY", basePrice: d("12345"), singleGuestDiscount: d("15"), singleGuestDiscountType: "percent" }), party: { adults: 1 }, property: property({ exchangeRates: rates }) }))[0])
      .toBe("10493")
  })

  it("KWD: three decimals", () => {
    const dinar = plan({ currency: "KWD", basePrice: d("45.125") })
    // 45.125 × 0.9 = 40.6125 → 40.613; VAT 6% of 121.839 = 7.31034 → 7.310; resort 5 / 2.98 = 1.67785… → 1.678
    const quote = stay({ plan: derived(dinar, "percent", "-10"), property: property({ exchangeRates: rates, taxes: [VAT, RESORT] }) })
    expect(nightAmounts(quote)).toEqual(["40.613", "40.613", "40.613"])
    expect(lineTriples(quote).slice(3)).toEqual([["tax", "VAT", "7.310"], ["tax", "Resort fee", "1.678"]])
    expect(fmt(quote.total, "KWD")).toBe("130.827")
    expect(fmt(quote.nightlyRate, "KWD")).toBe("40.613")
  })

  it("fails loudly only when a conversion is needed and no rate exists", () => {
    expect(stay({ plan: plan({ currency: "GBP" }) }).exchangeRate).toBeNull()
    expect(() => stay({ plan: plan({ currency: "GBP" }), property: property({ taxes: [RESORT] }) })).toThrow(MissingExchangeRate)
  })
})

describe("inclusions", () => {
  it("become entitlements multiplied by the frequency", () => {
    const inclusion = (frequency: "perStay" | "perNight" | "perGuest" | "perGuestPerNight") => ({
      label: frequency, allocatedAmount: d("12.50"), frequency, inclusionKind: "credit" as const, revenueCategory: "fnb", currency: "EUR", includedQuantity: 2
    })
    const quote = stay({
      party: { adults: 2, childAges: [4] },
      roomType: { baseOccupancy: 3, maxOccupancy: 3 },
      inclusions: [inclusion("perStay"), inclusion("perNight"), inclusion("perGuest"), inclusion("perGuestPerNight")]
    })
    // 3 nights, 3 guests
    expect(quote.entitlements.map((e) => [e.label, e.quantity, fmt(e.allowance)])).toEqual([
      ["perStay", 2, "12.50"], ["perNight", 6, "37.50"], ["perGuest", 6, "37.50"], ["perGuestPerNight", 18, "112.50"]
    ])
    expect(quote.entitlements[0]).toMatchObject({ inclusionKind: "credit", revenueCategory: "fnb", serviceItemId: null, currency: "EUR" })
    expect(fmt(quote.total)).toBe("300.00")
  })
})
