// The rows a snapshot is built from (NUMERIC as text, DATE as `YYYY-MM-DD` text): the catalogue's and the rate
// management's own row types, trimmed to what pricing reads, so a column is typed in one place.
import type { Rates } from "@hotel/domain"
import type { AgeBracketRow, CurrencyRow, PropertyRow, RoomTypeRow, ServiceRow, TaxRow } from "../../catalog/CatalogRepository.js"
import type { RatePlanRow } from "../../rates/RatePlanRepository.js"

export interface PropertyPricingRow extends Omit<PropertyRow, "default_rate_plan_id"> {
  readonly currencies: ReadonlyArray<CurrencyRow>
  readonly age_brackets: ReadonlyArray<AgeBracketRow>
  readonly taxes: ReadonlyArray<TaxRow>
}

export type RoomTypePricingRow = Omit<RoomTypeRow, "rooms">

export interface PlanPricingRow
  extends Omit<RatePlanRow, "property_id" | "description" | "image_url" | "created_at" | "updated_at">
{
  /** Ancestors of live plans are loaded even when deleted (their descendants are then hidden). */
  readonly deleted: boolean
}

export interface IntervalPricingRow extends Rates.Interval.IntervalFields {
  readonly id: string
  readonly rate_plan_id: string
}

export interface InclusionPricingRow extends Rates.Inclusion.InclusionFields {
  readonly rate_plan_id: string
}

export type ServicePricingRow = ServiceRow

export interface PromoCodePricingRow extends Rates.PromoCode.PromoCodeFields {
  readonly id: string
  readonly rate_plan_id: string
  readonly code: string
  /** Live redemptions, all guests. */
  readonly redemptions: number
  /** Live redemptions by the booking guest; null when no guest is known. */
  readonly guest_redemptions: number | null
}

/** A plan's overrides on one night (`rate_plan_nights`); NULL: none of that field. */
export interface NightPricingRow {
  readonly rate_plan_id: string
  readonly night: string
  readonly price: string | null
  readonly min_stay: number | null
  readonly max_stay: number | null
  readonly closed_to_arrival: boolean | null
  readonly closed_to_departure: boolean | null
  readonly stop_sell: boolean | null
}
