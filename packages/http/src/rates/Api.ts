import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { RatePlanNotFound, Rates, IntervalNotFound, PromoCodeNotFound } from "@hotel/domain"
import { Authorization, IdempotentTransaction, RequestBody, CacheControl, NotFoundAs, RequiredScope, shortCache } from "../Security.js"
import { CancellationTier } from "../catalog/Api.js"
import { IdParam, ListOf, Created } from "../Common.js"

const NullableString = Schema.NullOr(Schema.String)
const NullableInt = Schema.NullOr(Schema.Int)

/** The full rate plan object of `GET /rate-plans/{id}` and of the list. */
export const RatePlan = Schema.Struct({
  id: Schema.String,
  room_type_id: Schema.String,
  name: Schema.String,
  public_name: NullableString,
  description: NullableString,
  image_url: NullableString,
  base_price: Schema.String,
  currency: Schema.String,
  extra_guest_charge: Schema.String,
  single_guest_discount: Schema.String,
  single_guest_discount_type: Schema.Literal("fixed", "percent"),
  min_los: NullableInt,
  max_los: NullableInt,
  booking_window_start: NullableString,
  booking_window_end: NullableString,
  stay_window_start: NullableString,
  stay_window_end: NullableString,
  active_for_booking_engine: Schema.Boolean,
  active_for_channels: Schema.Boolean,
  kind: Schema.Literal("standard", "promotion"),
  derived_from_id: NullableString,
  derivation_type: Schema.NullOr(Schema.Literal("percent", "fixed", "perPerson")),
  derivation_value: NullableString,
  is_active: Schema.Boolean,
  is_default: Schema.Boolean,
  requires_promo_code: Schema.Boolean,
  cancellation_policy: Schema.NullOr(Schema.Array(CancellationTier)),
  created_at: Schema.String,
  updated_at: Schema.String
})

/** Catalogue reads of rate plans (scope `catalog:read`). */
export class RatePlanReadsApi extends HttpApiGroup.make("ratePlanReads")
  .add(HttpApiEndpoint.get("list", "/rate-plans").addSuccess(ListOf(RatePlan)))
  .add(
    HttpApiEndpoint.get("get")`/rate-plans/${IdParam}`
      .addSuccess(RatePlan)
      .addError(Errors.RatePlanNotFound)
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "catalog:read")
  .annotate(CacheControl, shortCache)
{}

export const RatePlanCreated = Schema.Struct({ rate_plan_id: Schema.String })
export const RatePlanUpdated = Schema.Struct({ rate_plan_id: Schema.String, updated: Schema.Literal(true) })
export const RatePlanDeleted = Schema.Struct({ rate_plan_id: Schema.String, deleted: Schema.Literal(true) })

/**
 * Rate plan writes (interface 4.1; scope `rates:write`). Promotions are plans with `kind` `promotion` and a
 * derivation. The full object is read back with `GET /rate-plans/{id}` (group `ratePlanReads`).
 */
export class RatePlanWritesApi extends HttpApiGroup.make("ratePlanWrites")
  .add(
    HttpApiEndpoint.post("create", "/rate-plans")
      .setPayload(Rates.RatePlan.RatePlanCreate)
      .addSuccess(RatePlanCreated, Created)
      .addError(Errors.RoomTypeNotFound)
  )
  .add(
    HttpApiEndpoint.patch("update")`/rate-plans/${IdParam}`
      .setPayload(Rates.RatePlan.RatePlanPatch)
      .addSuccess(RatePlanUpdated)
      .addError(Errors.DefaultRatePlanProtected)
  )
  .add(
    HttpApiEndpoint.del("delete")`/rate-plans/${IdParam}`
      .addSuccess(RatePlanDeleted)
      .addError(Errors.DefaultRatePlanProtected)
      .addError(Errors.RatePlanInUse)
  )
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, RatePlanNotFound)
{}

const Price = Schema.NullOr(Schema.String)

/** An interval as read (interface 2.3): money in the plan's currency. */
export const Interval = Schema.Struct({
  id: Schema.String,
  rate_plan_id: Schema.String,
  name: Schema.String,
  start_date: Schema.String,
  end_date: Schema.String,
  price_mon: Price,
  price_tue: Price,
  price_wed: Price,
  price_thu: Price,
  price_fri: Price,
  price_sat: Price,
  price_sun: Price,
  min_stay: Schema.NullOr(Schema.Int),
  max_stay: Schema.NullOr(Schema.Int),
  closed_to_arrival: Schema.Boolean,
  closed_to_departure: Schema.Boolean,
  stop_sell: Schema.Boolean,
  extra_guest_charge: Schema.String,
  single_guest_discount: Schema.String,
  currency: Schema.String,
  created_at: Schema.String
})

export const IntervalCreated = Schema.Struct({ interval_id: Schema.String })
export const IntervalUpdated = Schema.Struct({ interval_id: Schema.String, updated: Schema.Literal(true) })
export const IntervalDeleted = Schema.Struct({ interval_id: Schema.String, deleted: Schema.Literal(true) })

/**
 * Seasonal intervals (interface 4.2): reads need `rates:read`, writes `rates:write`. An `{id}` under
 * `/rate-plans` names a plan, under `/intervals` an interval.
 */
export class IntervalsApi extends HttpApiGroup.make("intervals")
  .add(
    HttpApiEndpoint.get("list")`/rate-plans/${IdParam}/intervals`
      .addSuccess(ListOf(Interval))
      .annotate(RequiredScope, "rates:read")
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .add(
    HttpApiEndpoint.post("create")`/rate-plans/${IdParam}/intervals`
      .setPayload(Rates.Interval.IntervalCreate)
      .addSuccess(IntervalCreated, Created)
      .addError(Errors.IntervalOverlap)
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .add(
    HttpApiEndpoint.get("get")`/intervals/${IdParam}`
      .addSuccess(Interval)
      .annotate(RequiredScope, "rates:read")
  )
  .add(
    HttpApiEndpoint.patch("update")`/intervals/${IdParam}`
      .setPayload(Rates.Interval.IntervalPatch)
      .addSuccess(IntervalUpdated)
      .addError(Errors.IntervalOverlap)
  )
  .add(HttpApiEndpoint.del("delete")`/intervals/${IdParam}`.addSuccess(IntervalDeleted))
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, IntervalNotFound)
{}

/** An inclusion or credit as read (interface 2.4): the amount in its own currency. */
export const Inclusion = Schema.Struct({
  id: Schema.String,
  label: Schema.String,
  allocated_amount: Schema.String,
  frequency: Schema.Literal("perStay", "perNight", "perGuest", "perGuestPerNight"),
  inclusion_kind: Schema.Literal("perk", "credit"),
  revenue_category: Schema.Literal("room", "fnb", "spa", "excursions", "activities", "other"),
  service_item_id: Schema.NullOr(Schema.String),
  currency: Schema.String,
  included_quantity: Schema.Int
})

export const InclusionsReplaced = Schema.Struct({ rate_plan_id: Schema.String, count: Schema.Int })

/** A plan's inclusions (interface 4.3): read with `rates:read`; POST replaces the whole list (`rates:write`). */
export class InclusionsApi extends HttpApiGroup.make("inclusions")
  .add(
    HttpApiEndpoint.get("list")`/rate-plans/${IdParam}/inclusions`
      .addSuccess(ListOf(Inclusion))
      .annotate(RequiredScope, "rates:read")
  )
  .add(
    HttpApiEndpoint.post("replace")`/rate-plans/${IdParam}/inclusions`
      .setPayload(Rates.Inclusion.InclusionsReplace)
      .addSuccess(InclusionsReplaced)
      .addError(Errors.ServiceNotFound)
  )
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, RatePlanNotFound)
{}

/** A promo code as read (interface 2.5), with its live redemptions. */
export const PromoCode = Schema.Struct({
  id: Schema.String,
  rate_plan_id: Schema.String,
  code: Schema.String,
  valid_from: Schema.NullOr(Schema.String),
  valid_to: Schema.NullOr(Schema.String),
  max_redemptions: Schema.NullOr(Schema.Int),
  max_per_guest: Schema.NullOr(Schema.Int),
  is_active: Schema.Boolean,
  times_redeemed: Schema.Int,
  created_at: Schema.String
})

export const PromoCodeCreated = Schema.Struct({ promo_code_id: Schema.String, code: Schema.String })
export const PromoCodeUpdated = Schema.Struct({ promo_code_id: Schema.String, updated: Schema.Literal(true) })
export const PromoCodeDeleted = Schema.Struct({ promo_code_id: Schema.String, deleted: Schema.Literal(true) })

/** Promo codes (interface 4.4): reads need `rates:read`, writes `rates:write`. */
export class PromoCodesApi extends HttpApiGroup.make("promoCodes")
  .add(
    HttpApiEndpoint.get("list")`/rate-plans/${IdParam}/promo-codes`
      .addSuccess(ListOf(PromoCode))
      .annotate(RequiredScope, "rates:read")
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .add(
    HttpApiEndpoint.post("create")`/rate-plans/${IdParam}/promo-codes`
      .setPayload(Rates.PromoCode.PromoCodeCreate)
      .addSuccess(PromoCodeCreated, Created)
      .addError(Errors.PromoCodeExists)
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .add(
    HttpApiEndpoint.get("get")`/promo-codes/${IdParam}`
      .addSuccess(PromoCode)
      .annotate(RequiredScope, "rates:read")
  )
  .add(
    HttpApiEndpoint.patch("update")`/promo-codes/${IdParam}`
      .setPayload(Rates.PromoCode.PromoCodePatch)
      .addSuccess(PromoCodeUpdated)
  )
  .add(HttpApiEndpoint.del("delete")`/promo-codes/${IdParam}`.addSuccess(PromoCodeDeleted))
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, PromoCodeNotFound)
{}
