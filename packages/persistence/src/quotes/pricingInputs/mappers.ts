// Row → model mappers (pure; exported for the booking flow and tests).
import { Money, type Pricing, type Rates, type Visibility } from "@hotel/domain"
import { oneOf } from "./oneOf.js"
import type {
  InclusionPricingRow,
  IntervalPricingRow,
  NightPricingRow,
  PromoCodePricingRow,
  PropertyPricingRow,
  RoomTypePricingRow,
  ServicePricingRow
} from "./rows.js"
import type { SnapshotProperty, SnapshotRoomType, SnapshotService } from "./snapshot.js"

const FREQUENCIES = ["perStay", "perNight", "perGuest", "perGuestPerNight"] as const
const TAX_KINDS = ["percent", "perStay", "perNight", "perGuestPerNight"] as const

const amountOrNull = (value: string | null): Money.Amount | null => (value === null ? null : Money.fromDb(value))

export const toPolicy = (json: ReadonlyArray<Rates.RatePlan.CancellationTier>): ReadonlyArray<Pricing.CancellationTier> =>
  json.map((tier) => ({ daysBeforeArrival: tier.days_before_arrival, refundPercent: tier.refund_percent }))

export const toProperty = (row: PropertyPricingRow): SnapshotProperty => ({
  id: row.id,
  code: row.code,
  name: row.name,
  timezone: row.timezone,
  baseCurrency: row.base_currency,
  loyaltyPointsPerUsd: row.loyalty_points_per_usd,
  pricing: {
    baseCurrency: row.base_currency,
    exchangeRates: row.currencies.map((c) => ({ currency: c.currency, rateToBase: Money.fromDb(c.rate_to_base) })),
    ageBrackets: row.age_brackets.map((b) => ({ maxAge: b.max_age, extraGuestPercent: Money.fromDb(b.extra_guest_percent) })),
    taxes: row.taxes.map((t): Pricing.Tax => ({
      code: t.code,
      name: t.name,
      kind: oneOf("tax kind", TAX_KINDS, t.kind),
      value: Money.fromDb(t.value),
      appliesTo: t.applies_to === null ? null : oneOf("tax applies_to", ["room", "addons"] as const, t.applies_to),
      maxNights: t.max_nights,
      exemptUnderAge: t.exempt_under_age
    })),
    cancellationPolicy: toPolicy(row.cancellation_policy)
  }
})

export const toRoomType = (row: RoomTypePricingRow): SnapshotRoomType => ({
  id: row.id,
  code: row.code,
  name: row.name,
  baseOccupancy: row.base_occupancy,
  maxOccupancy: row.max_occupancy,
  bedConfigs: row.bed_configs
})

export const toInterval = (row: IntervalPricingRow): Pricing.Interval => ({
  id: row.id,
  name: row.name,
  startDate: row.start_date,
  endDate: row.end_date,
  prices: {
    mon: amountOrNull(row.price_mon),
    tue: amountOrNull(row.price_tue),
    wed: amountOrNull(row.price_wed),
    thu: amountOrNull(row.price_thu),
    fri: amountOrNull(row.price_fri),
    sat: amountOrNull(row.price_sat),
    sun: amountOrNull(row.price_sun)
  },
  minStay: row.min_stay,
  maxStay: row.max_stay,
  closedToArrival: row.closed_to_arrival,
  closedToDeparture: row.closed_to_departure,
  stopSell: row.stop_sell,
  extraGuestCharge: Money.fromDb(row.extra_guest_charge),
  singleGuestDiscount: Money.fromDb(row.single_guest_discount)
})

export const toInclusion = (row: InclusionPricingRow): Pricing.Inclusion => ({
  label: row.label,
  allocatedAmount: Money.fromDb(row.allocated_amount),
  frequency: oneOf("inclusion frequency", FREQUENCIES, row.frequency),
  inclusionKind: oneOf("inclusion kind", ["perk", "credit"] as const, row.inclusion_kind),
  revenueCategory: row.revenue_category,
  serviceItemId: row.service_item_id,
  currency: row.currency,
  includedQuantity: row.included_quantity
})

export const toService = (row: ServicePricingRow): SnapshotService => ({
  id: row.id,
  code: row.code,
  guestBookable: row.guest_bookable,
  modifiers: row.modifiers,
  model: {
    id: row.id,
    name: row.name,
    price: Money.fromDb(row.price),
    pricingUnit: oneOf("service pricing unit", FREQUENCIES, row.pricing_unit),
    revenueCategory: row.revenue_category,
    tax: row.tax === null ? null : {
      kind: oneOf("service tax kind", TAX_KINDS, row.tax.kind),
      value: Money.fromDb(String(row.tax.value)),
      maxNights: row.tax.max_nights ?? null,
      exemptUnderAge: row.tax.exempt_under_age ?? null
    }
  }
})

export const toPromoCode = (row: PromoCodePricingRow): Visibility.PromoCodeState => ({
  id: row.id,
  ratePlanId: row.rate_plan_id,
  code: row.code,
  isActive: row.is_active,
  deleted: false,
  validFrom: row.valid_from,
  validTo: row.valid_to,
  maxRedemptions: row.max_redemptions,
  maxPerGuest: row.max_per_guest,
  redemptions: row.redemptions,
  guestRedemptions: row.guest_redemptions
})

export const toNightOverride = (row: NightPricingRow): Pricing.NightOverride => ({
  price: amountOrNull(row.price),
  minStay: row.min_stay,
  maxStay: row.max_stay,
  closedToArrival: row.closed_to_arrival,
  closedToDeparture: row.closed_to_departure,
  stopSell: row.stop_sell
})
