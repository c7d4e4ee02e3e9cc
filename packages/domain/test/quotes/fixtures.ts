// Builders for the pricing, offer, visibility and cancellation tests: sensible defaults, overridden per case.
import * as BigDecimal from "effect/BigDecimal"
import * as Money from "../../src/money/Money.js"
import type { IsoDate } from "../../src/quotes/dates.js"
import type { Inclusion, PricingProperty, RatePlan, RoomType } from "../../src/quotes/model.js"
import { priceStay, type Quote, type StayRequest } from "../../src/quotes/quote.js"
import type { RatesCatalogue } from "../../src/quotes/ratesListing.js"
import type { PromoCodeState } from "../../src/rates/visibility/promoCodes.js"

export const d = (text: string): BigDecimal.BigDecimal => BigDecimal.fromStringUnsafe(text)

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

/** A plan as offers and the `/rates` listing take it (`model` plus what a snapshot adds). */
export interface TestPlan {
  readonly id: string
  readonly roomTypeId: string
  readonly currency: string
  readonly name: string
  readonly model: RatePlan
  readonly inclusions: ReadonlyArray<Inclusion>
}

export interface TestRoomType extends RoomType {
  readonly id: string
  readonly name: string
}

export const listedPlan = (model: RatePlan = plan()): TestPlan => ({
  id: model.id,
  roomTypeId: model.roomTypeId,
  currency: model.currency,
  name: `Plan ${model.id}`,
  model,
  inclusions: []
})

export const roomType = (id = "dbl", overrides: Partial<TestRoomType> = {}): TestRoomType => ({
  id,
  name: `Room ${id}`,
  ...room,
  ...overrides
})

/**
 * A loaded property as offers read it: today 2026-11-20 in UTC (the default stay, 1–4 December, is ahead),
 * its plans (by default `plan()` on "dbl") and room types (by default "dbl") in the order given.
 */
export const catalogue = (input: {
  readonly plans?: ReadonlyArray<TestPlan>
  readonly roomTypes?: ReadonlyArray<TestRoomType>
  readonly pricing?: PricingProperty
  readonly promoCodes?: ReadonlyArray<PromoCodeState>
  readonly today?: IsoDate
} = {}): RatesCatalogue<TestPlan, TestRoomType> => {
  const plans = input.plans ?? [listedPlan()]
  const roomTypes = input.roomTypes ?? [roomType()]
  return {
    now: new Date("2026-11-20T12:00:00Z"),
    today: input.today ?? "2026-11-20",
    property: { timezone: "UTC", pricing: input.pricing ?? property() },
    promoCodes: input.promoCodes ?? [],
    roomTypes,
    roomTypesById: new Map(roomTypes.map((r) => [r.id, r])),
    plans,
    plansById: new Map(plans.map((p) => [p.id, p]))
  }
}
