// Builders for the pricing, visibility and cancellation tests: sensible defaults, overridden per case.
import * as BigDecimal from "effect/BigDecimal"
import * as Money from "../../src/money/Money.js"
import type { PricingProperty, RatePlan, RoomType } from "../../src/quotes/model.js"
import { priceStay, type Quote, type StayRequest } from "../../src/quotes/quote.js"

export const d = (text: string): BigDecimal.BigDecimal => BigDecimal.unsafeFromString(text)

export const plan = (overrides: Partial<RatePlan> = {}): RatePlan => ({
  id: "bar",
  roomTypeId: "dbl",
  currency: "EUR",
  basePrice: d("100.00"),
  extraGuestCharge: d("0.00"),
  singleGuestDiscount: d("0.00"),
  singleGuestDiscountType: "fixed",
  intervals: [],
  isActive: true,
  deleted: false,
  activeForBookingEngine: true,
  activeForChannels: true,
  requiresPromoCode: false,
  ...overrides
})

/** A plan derived from `parent`. */
export const derived = (
  parent: RatePlan,
  type: "percent" | "fixed" | "perPerson",
  value: string,
  overrides: Partial<RatePlan> = {}
): RatePlan =>
  plan({ id: `${parent.id}>${type}${value}`, currency: parent.currency, derivation: { type, value: d(value), parent }, ...overrides })

export const property = (overrides: Partial<PricingProperty> = {}): PricingProperty => ({
  baseCurrency: "EUR",
  exchangeRates: [],
  ageBrackets: [],
  taxes: [],
  ...overrides
})

export const room: RoomType = { baseOccupancy: 2, maxOccupancy: 4 }

export const stay = (overrides: Partial<StayRequest> = {}): Quote =>
  priceStay({
    plan: plan(),
    roomType: room,
    property: property(),
    checkIn: "2026-12-01",
    checkOut: "2026-12-04",
    party: { adults: 2 },
    ...overrides
  })

export const fmt = (amount: BigDecimal.BigDecimal, currency = "EUR"): string => Money.format(amount, currency)

/** Night amounts as formatted strings. */
export const nightAmounts = (quote: Quote): ReadonlyArray<string> => quote.nights.map((n) => fmt(n.amount, quote.currency))

/** Lines as `[kind, description, amount]` triples, for whole-folio assertions. */
export const lineTriples = (quote: Quote): ReadonlyArray<readonly [string, string, string]> =>
  quote.lines.map((line) => [line.kind, line.description, fmt(line.amount, quote.currency)] as const)
