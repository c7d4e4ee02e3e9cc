// The request bodies of POST and PATCH `/rate-plans`.
import * as Schema from "effect/Schema"
import {
  BoolField,
  CancellationTierField,
  CurrencyField,
  DateField,
  DecimalField,
  DerivationType,
  DiscountType,
  IdField,
  immutable,
  int,
  list,
  nullable,
  optional,
  RatePlanKind,
  text,
  UrlField
} from "../fields.js"

const Name = text(1, 100)
const PublicName = text(1, 100)
const Description = text(0, 2000)
const Los = int(1, 366)
const Policy = list(CancellationTierField, 20)

/** The fields both bodies accept the same way, in the contract's order (decode errors follow it). */
const settableFields = {
  currency: optional(CurrencyField),
  public_name: nullable(PublicName),
  description: nullable(Description),
  image_url: nullable(UrlField),
  extra_guest_charge: optional(DecimalField),
  single_guest_discount: optional(DecimalField),
  single_guest_discount_type: optional(DiscountType),
  min_los: nullable(Los),
  max_los: nullable(Los),
  booking_window_start: nullable(DateField),
  booking_window_end: nullable(DateField),
  stay_window_start: nullable(DateField),
  stay_window_end: nullable(DateField),
  active_for_booking_engine: optional(BoolField),
  active_for_channels: optional(BoolField),
  kind: optional(RatePlanKind),
  derived_from_id: nullable(IdField),
  derivation_type: nullable(DerivationType),
  derivation_value: nullable(DecimalField),
  requires_promo_code: optional(BoolField),
  cancellation_policy: nullable(Policy)
}

/** `POST /rate-plans`. Nullable fields also accept `null` (the same as leaving them out). */
export const RatePlanCreate = Schema.Struct({
  room_type_id: IdField,
  name: Name,
  base_price: DecimalField,
  ...settableFields
}).annotate({ identifier: "RatePlanCreate" })
export type RatePlanCreate = typeof RatePlanCreate.Type

/** `PATCH /rate-plans/{id}`: any field of the create body but `room_type_id`, plus `is_active`; `null` clears. */
export const RatePlanPatch = Schema.Struct({
  room_type_id: immutable(IdField, "cannot be changed; create a new rate plan for another room type"),
  name: optional(Name),
  base_price: optional(DecimalField),
  ...settableFields,
  is_active: optional(BoolField)
}).annotate({ identifier: "RatePlanPatch" })
export type RatePlanPatch = typeof RatePlanPatch.Type
