import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Schema from "effect/Schema"
import { IdempotentHeaders } from "../common/IdempotencyKey.js"
import * as Errors from "../common/Errors.js"
import { IntervalNotFound, PromoCodeNotFound, RatePlanNotFound, Rates } from "@hotel/domain"
import { CacheControl, NotFoundAs, RequiredScope, shortCache } from "../common/Security.js"
import { CancellationTier } from "../catalog/Api.js"
import { created, CurrencyCode, Id, IdParam, ListOf, Money, Timestamp } from "../common/Common.js"
import { doc, tag } from "../openapi/Docs.js"
import { EntityTagged, IfMatchHeaders } from "../common/EntityTags.js"
import {
  Inclusion,
  InclusionsReplaced,
  Interval,
  IntervalCreated,
  IntervalDeleted,
  IntervalUpdated,
  PromoCode,
  PromoCodeCreated,
  PromoCodeDeleted,
  PromoCodeUpdated
} from "./RateManagementSchemas.js"

export * from "./RateManagementSchemas.js"

const NullableString = Schema.NullOr(Schema.String)
const NullableInt = Schema.NullOr(Schema.Int)

/** The full rate plan object of `GET /rate-plans/{id}` and of the list. */
export const RatePlan = Schema.Struct({
  id: Id,
  room_type_id: Id,
  name: Schema.String,
  public_name: NullableString,
  description: NullableString,
  image_url: NullableString,
  base_price: Money,
  currency: CurrencyCode,
  extra_guest_charge: Money,
  single_guest_discount: Money,
  single_guest_discount_type: Schema.Literals(["fixed", "percent"]),
  min_los: NullableInt,
  max_los: NullableInt,
  booking_window_start: NullableString,
  booking_window_end: NullableString,
  stay_window_start: NullableString,
  stay_window_end: NullableString,
  active_for_booking_engine: Schema.Boolean,
  active_for_channels: Schema.Boolean,
  kind: Schema.Literals(["standard", "promotion"]),
  derived_from_id: Schema.NullOr(Id),
  derivation_type: Schema.NullOr(Schema.Literals(["percent", "fixed", "perPerson"])),
  derivation_value: NullableString,
  is_active: Schema.Boolean,
  is_default: Schema.Boolean,
  requires_promo_code: Schema.Boolean,
  cancellation_policy: Schema.NullOr(Schema.Array(CancellationTier)),
  created_at: Timestamp,
  updated_at: Timestamp
}).annotate({ identifier: "RatePlan" })

/** Catalogue reads of rate plans (scope `catalog:read`). */
export class RatePlanReadsApi extends HttpApiGroup.make("ratePlanReads")
  .annotateMerge(tag("Rate plans", "Rate plans price a room type: a base price, length-of-stay and booking windows, derivation from a parent plan, and a cancellation policy. Reads need `catalog:read`, writes `rates:write`."))
  .add(HttpApiEndpoint.get("list", "/rate-plans", {
    disableCodecs: true,
    success: ListOf(RatePlan)
  })
    .annotateMerge(doc("List rate plans", "Every rate plan of the property visible to the key's sales context."))
    .annotateMerge(EntityTagged))
  .add(
    HttpApiEndpoint.get("get", "/rate-plans/:id", {
      disableCodecs: true,
      params: IdParam,
      success: RatePlan,
      error: [Errors.RatePlanNotFound]
    })
      .annotateMerge(doc("Get a rate plan", "One rate plan with its prices, restrictions, derivation and cancellation policy."))
      .annotate(NotFoundAs, RatePlanNotFound)
      .annotateMerge(EntityTagged)
  )
  .annotate(RequiredScope, "catalog:read")
  .annotate(CacheControl, shortCache)
{}

export const RatePlanCreated = Schema.Struct({ rate_plan_id: Id }).annotate({ identifier: "RatePlanCreated" })
export const RatePlanUpdated = Schema.Struct({ rate_plan_id: Id, updated: Schema.Literal(true) }).annotate({ identifier: "RatePlanUpdated" })
export const RatePlanDeleted = Schema.Struct({ rate_plan_id: Id, deleted: Schema.Literal(true) }).annotate({ identifier: "RatePlanDeleted" })

/**
 * Rate plan writes. Promotions are plans with `kind` `promotion` and a
 * derivation. The full object is read back with `GET /rate-plans/{id}` (group `ratePlanReads`).
 */
export class RatePlanWritesApi extends HttpApiGroup.make("ratePlanWrites")
  .annotateMerge(tag("Rate plans", "Rate plans price a room type."))
  .add(
    HttpApiEndpoint.post("create", "/rate-plans", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      payload: Rates.RatePlan.RatePlanCreate,
      success: created(RatePlanCreated),
      error: [Errors.RoomTypeNotFound]
    })
      .annotateMerge(doc("Create a rate plan", "Creates a standard plan or a promotion derived from another plan. Money is in the plan's currency."))
  )
  .add(
    HttpApiEndpoint.patch("update", "/rate-plans/:id", {
      disableCodecs: true,
      params: IdParam,
      payload: Rates.RatePlan.RatePlanPatch,
      headers: IfMatchHeaders,
      success: RatePlanUpdated,
      error: [Errors.DefaultRatePlanProtected, Errors.PreconditionFailed]
    })
      .annotateMerge(doc("Update a rate plan", "Changes the fields sent; the others keep their values."))
  )
  .add(
    HttpApiEndpoint.delete("delete", "/rate-plans/:id", {
      disableCodecs: true,
      params: IdParam,
      headers: IfMatchHeaders,
      success: RatePlanDeleted,
      error: [Errors.PreconditionFailed, Errors.DefaultRatePlanProtected, Errors.RatePlanInUse]
    })
      .annotateMerge(doc("Delete a rate plan", "Deletes a plan no reservation, hold or derived plan uses; the default plan cannot be deleted."))
  )
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, RatePlanNotFound)
{}

/**
 * Seasonal intervals: reads need `rates:read`, writes `rates:write`. An `{id}` under
 * `/rate-plans` names a plan, under `/intervals` an interval.
 */
export class IntervalsApi extends HttpApiGroup.make("intervals")
  .annotateMerge(tag("Seasonal intervals", "Date ranges of a rate plan with their own prices per weekday, stay limits and restrictions (closed to arrival or departure, stop sell)."))
  .add(
    HttpApiEndpoint.get("list", "/rate-plans/:id/intervals", {
      disableCodecs: true,
      params: IdParam,
      success: ListOf(Interval)
    })
      .annotateMerge(doc("List a plan's intervals", "The seasonal intervals of a rate plan, in date order."))
      .annotate(RequiredScope, "rates:read")
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .add(
    HttpApiEndpoint.post("create", "/rate-plans/:id/intervals", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Rates.Interval.IntervalCreate,
      success: created(IntervalCreated),
      error: [Errors.IntervalOverlap]
    })
      .annotateMerge(doc("Create an interval", "Adds a seasonal interval to a plan; it may not overlap another interval of the plan."))
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .add(
    HttpApiEndpoint.get("get", "/intervals/:id", {
      disableCodecs: true,
      params: IdParam,
      success: Interval
    })
      .annotateMerge(doc("Get an interval", "One seasonal interval with its weekday prices and restrictions."))
      .annotate(RequiredScope, "rates:read")
      .annotateMerge(EntityTagged)
  )
  .add(
    HttpApiEndpoint.patch("update", "/intervals/:id", {
      disableCodecs: true,
      params: IdParam,
      payload: Rates.Interval.IntervalPatch,
      headers: IfMatchHeaders,
      success: IntervalUpdated,
      error: [Errors.IntervalOverlap, Errors.PreconditionFailed]
    })
      .annotateMerge(doc("Update an interval", "Changes the fields sent; the interval may not come to overlap another."))
  )
  .add(
    HttpApiEndpoint.delete("delete", "/intervals/:id", {
      disableCodecs: true,
      params: IdParam,
      headers: IfMatchHeaders,
      success: IntervalDeleted,
      error: [Errors.PreconditionFailed]
    })
      .annotateMerge(doc("Delete an interval", "Removes the interval; the plan's own prices apply to its dates again."))
  )
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, IntervalNotFound)
{}

/** A plan's inclusions: read with `rates:read`; POST replaces the whole list (`rates:write`). */
export class InclusionsApi extends HttpApiGroup.make("inclusions")
  .annotateMerge(tag("Inclusions and credits", "What a rate plan includes: perks priced into the rate and credits spent against folio charges."))
  .add(
    HttpApiEndpoint.get("list", "/rate-plans/:id/inclusions", {
      disableCodecs: true,
      params: IdParam,
      success: ListOf(Inclusion)
    })
      .annotateMerge(doc("List a plan's inclusions", "The perks and credits included in a rate plan."))
      .annotate(RequiredScope, "rates:read")
  )
  .add(
    HttpApiEndpoint.post("replace", "/rate-plans/:id/inclusions", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Rates.Inclusion.InclusionsReplace,
      success: InclusionsReplaced,
      error: [Errors.ServiceNotFound]
    })
      .annotateMerge(doc("Replace a plan's inclusions", "Replaces the whole list of inclusions of the plan with the list sent."))
  )
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, RatePlanNotFound)
{}

/** Promo codes: reads need `rates:read`, writes `rates:write`. */
export class PromoCodesApi extends HttpApiGroup.make("promoCodes")
  .annotateMerge(tag("Promo codes", "Codes that unlock a rate plan that requires one, with validity dates and redemption limits."))
  .add(
    HttpApiEndpoint.get("list", "/rate-plans/:id/promo-codes", {
      disableCodecs: true,
      params: IdParam,
      success: ListOf(PromoCode)
    })
      .annotateMerge(doc("List a plan's promo codes", "The promo codes of a rate plan with their live redemptions."))
      .annotate(RequiredScope, "rates:read")
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .add(
    HttpApiEndpoint.post("create", "/rate-plans/:id/promo-codes", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Rates.PromoCode.PromoCodeCreate,
      success: created(PromoCodeCreated),
      error: [Errors.PromoCodeExists]
    })
      .annotateMerge(doc("Create a promo code", "Adds a code to a plan; a code already in use is `promo_code_exists`."))
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .add(
    HttpApiEndpoint.get("get", "/promo-codes/:id", {
      disableCodecs: true,
      params: IdParam,
      success: PromoCode
    })
      .annotateMerge(doc("Get a promo code", "One promo code with its validity and redemptions."))
      .annotate(RequiredScope, "rates:read")
      .annotateMerge(EntityTagged)
  )
  .add(
    HttpApiEndpoint.patch("update", "/promo-codes/:id", {
      disableCodecs: true,
      params: IdParam,
      payload: Rates.PromoCode.PromoCodePatch,
      headers: IfMatchHeaders,
      success: PromoCodeUpdated,
      error: [Errors.PreconditionFailed]
    })
      .annotateMerge(doc("Update a promo code", "Changes the fields sent."))
  )
  .add(
    HttpApiEndpoint.delete("delete", "/promo-codes/:id", {
      disableCodecs: true,
      params: IdParam,
      headers: IfMatchHeaders,
      success: PromoCodeDeleted,
      error: [Errors.PreconditionFailed]
    })
      .annotateMerge(doc("Delete a promo code", "Removes the code."))
  )
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, PromoCodeNotFound)
{}

/** The `rates` feature's endpoint groups: rate plans, their intervals, inclusions and promo codes. `Api.ts` adds them to `HotelApi`. */
export const RatesGroups = HttpApi.make("hotel")
  .add(RatePlanReadsApi)
  .add(RatePlanWritesApi)
  .add(IntervalsApi)
  .add(InclusionsApi)
  .add(PromoCodesApi)
