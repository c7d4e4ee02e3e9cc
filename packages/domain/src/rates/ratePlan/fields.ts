// A plan's writable fields as stored: a POST becomes a complete set with the defaults of 2.2, a PATCH is merged
// onto the stored set; either result then goes through the same rules (./rules.ts).
import { keep, orNull } from "../merge.js"
import type { RatePlanCreate, RatePlanPatch } from "./bodies.js"

export interface CancellationTier {
  readonly days_before_arrival: number
  readonly refund_percent: number
}

/** Every writable field of a plan as stored (money and percentages as decimal text). */
export interface RatePlanFields {
  readonly room_type_id: string
  readonly name: string
  readonly public_name: string | null
  readonly description: string | null
  readonly image_url: string | null
  readonly base_price: string
  readonly currency: string
  readonly extra_guest_charge: string
  readonly single_guest_discount: string
  readonly single_guest_discount_type: "fixed" | "percent"
  readonly min_los: number | null
  readonly max_los: number | null
  readonly booking_window_start: string | null
  readonly booking_window_end: string | null
  readonly stay_window_start: string | null
  readonly stay_window_end: string | null
  readonly active_for_booking_engine: boolean
  readonly active_for_channels: boolean
  readonly kind: "standard" | "promotion"
  readonly derived_from_id: string | null
  readonly derivation_type: "percent" | "fixed" | "perPerson" | null
  readonly derivation_value: string | null
  readonly is_active: boolean
  readonly requires_promo_code: boolean
  readonly cancellation_policy: ReadonlyArray<CancellationTier> | null
}

/** What a derived plan must agree with: its parent's room type and currency. */
export interface ParentPlan {
  readonly id: string
  readonly room_type_id: string
  readonly currency: string
}

/**
 * A POST body with the defaults of 2.2 applied. The currency defaults to the parent's for a derived plan (it
 * prices in its parent's currency), otherwise to the property's base currency.
 */
export const fieldsFromCreate = (
  input: RatePlanCreate,
  defaults: { readonly baseCurrency: string; readonly parentCurrency: string | undefined }
): RatePlanFields => ({
  room_type_id: input.room_type_id,
  name: input.name,
  public_name: orNull(input.public_name),
  description: orNull(input.description),
  image_url: orNull(input.image_url),
  base_price: input.base_price,
  currency: input.currency ?? defaults.parentCurrency ?? defaults.baseCurrency,
  extra_guest_charge: input.extra_guest_charge ?? "0",
  single_guest_discount: input.single_guest_discount ?? "0",
  single_guest_discount_type: input.single_guest_discount_type ?? "fixed",
  min_los: orNull(input.min_los),
  max_los: orNull(input.max_los),
  booking_window_start: orNull(input.booking_window_start),
  booking_window_end: orNull(input.booking_window_end),
  stay_window_start: orNull(input.stay_window_start),
  stay_window_end: orNull(input.stay_window_end),
  active_for_booking_engine: input.active_for_booking_engine ?? false,
  active_for_channels: input.active_for_channels ?? false,
  kind: input.kind ?? "standard",
  derived_from_id: orNull(input.derived_from_id),
  derivation_type: orNull(input.derivation_type),
  derivation_value: orNull(input.derivation_value),
  is_active: true,
  requires_promo_code: input.requires_promo_code ?? false,
  cancellation_policy: orNull(input.cancellation_policy)
})

/**
 * A PATCH merged onto the stored plan. Clearing `derived_from_id` clears the derivation with it (a
 * `derivation_type`/`derivation_value` sent in the same request is then refused by `checkFields`).
 */
export const fieldsFromPatch = (patch: RatePlanPatch, stored: RatePlanFields): RatePlanFields => {
  const derivedFrom = keep(patch.derived_from_id, stored.derived_from_id)
  return {
    room_type_id: stored.room_type_id,
    name: keep(patch.name, stored.name),
    public_name: keep(patch.public_name, stored.public_name),
    description: keep(patch.description, stored.description),
    image_url: keep(patch.image_url, stored.image_url),
    base_price: keep(patch.base_price, stored.base_price),
    currency: keep(patch.currency, stored.currency),
    extra_guest_charge: keep(patch.extra_guest_charge, stored.extra_guest_charge),
    single_guest_discount: keep(patch.single_guest_discount, stored.single_guest_discount),
    single_guest_discount_type: keep(patch.single_guest_discount_type, stored.single_guest_discount_type),
    min_los: keep(patch.min_los, stored.min_los),
    max_los: keep(patch.max_los, stored.max_los),
    booking_window_start: keep(patch.booking_window_start, stored.booking_window_start),
    booking_window_end: keep(patch.booking_window_end, stored.booking_window_end),
    stay_window_start: keep(patch.stay_window_start, stored.stay_window_start),
    stay_window_end: keep(patch.stay_window_end, stored.stay_window_end),
    active_for_booking_engine: keep(patch.active_for_booking_engine, stored.active_for_booking_engine),
    active_for_channels: keep(patch.active_for_channels, stored.active_for_channels),
    kind: keep(patch.kind, stored.kind),
    derived_from_id: derivedFrom,
    derivation_type: derivedFrom === null
      ? orNull(patch.derivation_type)
      : keep(patch.derivation_type, stored.derivation_type),
    derivation_value: derivedFrom === null
      ? orNull(patch.derivation_value)
      : keep(patch.derivation_value, stored.derivation_value),
    is_active: keep(patch.is_active, stored.is_active),
    requires_promo_code: keep(patch.requires_promo_code, stored.requires_promo_code),
    cancellation_policy: keep(patch.cancellation_policy, stored.cancellation_policy)
  }
}
