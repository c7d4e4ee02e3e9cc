// The sections of the property file: every entry strict (unknown keys rejected) and validated like API input.
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import {
  BoolField,
  CancellationTierField,
  CurrencyField,
  DecimalField,
  DerivationType,
  DiscountType,
  Frequency,
  int,
  literal,
  optional,
  RatePlanKind,
  RevenueCategory,
  text
} from "../../rates/fields.js"
import { IsoDate } from "../../common/Schemas.js"
import {
  AbsoluteUrl,
  Code,
  defaultList,
  Description,
  list,
  ModifierKey,
  Name,
  PercentText,
  RateText,
  TimeZone
} from "./formats.js"

// Vocabularies: the API's where the API has the same one.
export const PropertyFileTaxKind = literal("percent", "perStay", "perNight", "perGuestPerNight")
export const PropertyFileTaxAppliesTo = literal("room", "addons")
export const PropertyFilePricingUnit = Frequency
export const PropertyFileRevenueCategory = RevenueCategory
export const PropertyFileModifierType = literal("text", "number", "boolean", "date", "select")
export const PropertyFileRatePlanKind = RatePlanKind
export const PropertyFileDerivationType = DerivationType
export const PropertyFileDiscountType = DiscountType

export const PropertyFileCancellationTier = CancellationTierField
export type PropertyFileCancellationTier = typeof PropertyFileCancellationTier.Type

export const PropertyFileCurrency = Schema.Struct({
  currency: CurrencyField,
  rate_to_base: RateText
})

export const PropertyFileAgeBracket = Schema.Struct({
  /** Children up to and including this age pay `extra_guest_percent` of the extra-guest charge. */
  max_age: int(0, 17),
  extra_guest_percent: PercentText
})

export const PropertyFileTax = Schema.Struct({
  code: Code,
  name: Name,
  kind: PropertyFileTaxKind,
  /** A percentage for `percent`, otherwise an amount in the base currency. */
  value: DecimalField,
  /** For `percent` only; defaults to `room`. */
  applies_to: optional(PropertyFileTaxAppliesTo),
  /** For `perNight` and `perGuestPerNight`: levied on at most this many nights. */
  max_nights: optional(int(1, 366)),
  /** For `perGuestPerNight`: children under this age are exempt. */
  exempt_under_age: optional(int(1, 18))
})
export type PropertyFileTax = typeof PropertyFileTax.Type

export const PropertyFileRoomType = Schema.Struct({
  code: Code,
  name: Name,
  description: optional(Description),
  base_occupancy: int(1, 20),
  max_occupancy: int(1, 20),
  bed_configs: defaultList(text(1, 50)),
  /** Room numbers, unique in the property. */
  rooms: list(text(1, 20))
})
export type PropertyFileRoomType = typeof PropertyFileRoomType.Type

export const PropertyFileModifier = Schema.Struct({
  key: ModifierKey,
  label: Name,
  type: PropertyFileModifierType,
  /** For `select` only (and required there). */
  options: optional(list(text(1, 100))),
  required: BoolField.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(false)))
})

export const PropertyFileServiceTax = Schema.Struct({
  kind: PropertyFileTaxKind,
  value: DecimalField,
  max_nights: optional(int(1, 366)),
  exempt_under_age: optional(int(1, 18))
})

export const PropertyFileService = Schema.Struct({
  code: Code,
  name: Name,
  description: optional(Description),
  /** In the base currency. */
  price: DecimalField,
  pricing_unit: PropertyFilePricingUnit,
  revenue_category: PropertyFileRevenueCategory,
  guest_bookable: BoolField.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(true))),
  tax: optional(PropertyFileServiceTax),
  modifiers: defaultList(PropertyFileModifier)
})
export type PropertyFileService = typeof PropertyFileService.Type

/** Every field of a rate plan, with the room type and the parent named by code, plus the import-only fields. */
export const PropertyFileRatePlan = Schema.Struct({
  code: Code,
  default: BoolField.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(false))),
  room_type: Code,
  name: Name,
  base_price: DecimalField,
  /** The base currency or a configured one; a derived plan defaults to its parent's, any other to the base. */
  currency: optional(CurrencyField),
  public_name: optional(Name),
  description: optional(Description),
  image_url: optional(AbsoluteUrl),
  extra_guest_charge: optional(DecimalField),
  single_guest_discount: optional(DecimalField),
  single_guest_discount_type: PropertyFileDiscountType.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed("fixed" as const))),
  min_los: optional(int(1, 366)),
  max_los: optional(int(1, 366)),
  booking_window_start: optional(IsoDate),
  booking_window_end: optional(IsoDate),
  stay_window_start: optional(IsoDate),
  stay_window_end: optional(IsoDate),
  active_for_booking_engine: BoolField.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(false))),
  active_for_channels: BoolField.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(false))),
  kind: PropertyFileRatePlanKind.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed("standard" as const))),
  derived_from: optional(Code),
  derivation_type: optional(PropertyFileDerivationType),
  derivation_value: optional(DecimalField),
  is_active: BoolField.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(true))),
  requires_promo_code: BoolField.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(false))),
  /** Overrides the property's policy for this plan. */
  cancellation_policy: optional(list(PropertyFileCancellationTier))
})
export type PropertyFileRatePlan = typeof PropertyFileRatePlan.Type

/** The whole document's shape, before the cross-field rules (../PropertyFile.ts adds them). */
export const PropertyFileFields = Schema.Struct({
  code: Code,
  name: Name,
  timezone: TimeZone,
  base_currency: CurrencyField,
  currencies: defaultList(PropertyFileCurrency),
  loyalty_points_per_usd: int(0, 1_000_000).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(10))),
  age_brackets: defaultList(PropertyFileAgeBracket),
  taxes: defaultList(PropertyFileTax),
  cancellation_policy: defaultList(PropertyFileCancellationTier),
  room_types: list(PropertyFileRoomType),
  services: defaultList(PropertyFileService),
  rate_plans: list(PropertyFileRatePlan)
})
