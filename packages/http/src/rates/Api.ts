import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Schema from "effect/Schema"
import * as Errors from "../common/Errors.js"
import { IntervalNotFound, PromoCodeNotFound, RatePlanNotFound, Rates } from "@hotel/domain"
import { CacheControl, NotFoundAs, RequiredScope, shortCache } from "../common/Security.js"
import { CancellationTier } from "../catalog/Api.js"
import { Created, CurrencyCode, Id, IdParam, ListOf, Money, Timestamp } from "../common/Common.js"
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
  derived_from_id: Schema.NullOr(Id),
  derivation_type: Schema.NullOr(Schema.Literal("percent", "fixed", "perPerson")),
  derivation_value: NullableString,
  is_active: Schema.Boolean,
  is_default: Schema.Boolean,
  requires_promo_code: Schema.Boolean,
  cancellation_policy: Schema.NullOr(Schema.Array(CancellationTier)),
  created_at: Timestamp,
  updated_at: Timestamp
})

/** Catalogue reads of rate plans (scope `catalog:read`). */
export class RatePlanReadsApi extends HttpApiGroup.make("ratePlanReads")
  .annotateContext(tag("Rate plans", "Rate plans price a room type: a base price, length-of-stay and booking windows, derivation from a parent plan, and a cancellation policy. Reads need `catalog:read`, writes `rates:write`."))
  .add(HttpApiEndpoint.get("list", "/rate-plans").annotateContext(doc("List rate plans", "Every rate plan of the property visible to the key's sales context.")).addSuccess(ListOf(RatePlan)).annotateContext(EntityTagged))
  .add(
    HttpApiEndpoint.get("get")`/rate-plans/${IdParam}`
      .annotateContext(doc("Get a rate plan", "One rate plan with its prices, restrictions, derivation and cancellation policy."))
      .addSuccess(RatePlan)
      .addError(Errors.RatePlanNotFound)
      .annotate(NotFoundAs, RatePlanNotFound)
      .annotateContext(EntityTagged)
  )
  .annotate(RequiredScope, "catalog:read")
  .annotate(CacheControl, shortCache)
{}

export const RatePlanCreated = Schema.Struct({ rate_plan_id: Id })
export const RatePlanUpdated = Schema.Struct({ rate_plan_id: Id, updated: Schema.Literal(true) })
export const RatePlanDeleted = Schema.Struct({ rate_plan_id: Id, deleted: Schema.Literal(true) })

/**
 * Rate plan writes. Promotions are plans with `kind` `promotion` and a
 * derivation. The full object is read back with `GET /rate-plans/{id}` (group `ratePlanReads`).
 */
export class RatePlanWritesApi extends HttpApiGroup.make("ratePlanWrites")
  .annotateContext(tag("Rate plans", "Rate plans price a room type."))
  .add(
    HttpApiEndpoint.post("create", "/rate-plans")
      .annotateContext(doc("Create a rate plan", "Creates a standard plan or a promotion derived from another plan. Money is in the plan's currency."))
      .setPayload(Rates.RatePlan.RatePlanCreate)
      .addSuccess(RatePlanCreated, Created)
      .addError(Errors.RoomTypeNotFound)
  )
  .add(
    HttpApiEndpoint.patch("update")`/rate-plans/${IdParam}`
      .annotateContext(doc("Update a rate plan", "Changes the fields sent; the others keep their values."))
      .setPayload(Rates.RatePlan.RatePlanPatch)
      .setHeaders(IfMatchHeaders)
      .addSuccess(RatePlanUpdated)
      .addError(Errors.DefaultRatePlanProtected)
      .addError(Errors.PreconditionFailed)
  )
  .add(
    HttpApiEndpoint.del("delete")`/rate-plans/${IdParam}`
      .setHeaders(IfMatchHeaders)
      .annotateContext(doc("Delete a rate plan", "Deletes a plan no reservation, hold or derived plan uses; the default plan cannot be deleted."))
      .addSuccess(RatePlanDeleted)
      .addError(Errors.PreconditionFailed)
      .addError(Errors.DefaultRatePlanProtected)
      .addError(Errors.RatePlanInUse)
  )
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, RatePlanNotFound)
{}

/**
 * Seasonal intervals: reads need `rates:read`, writes `rates:write`. An `{id}` under
 * `/rate-plans` names a plan, under `/intervals` an interval.
 */
export class IntervalsApi extends HttpApiGroup.make("intervals")
  .annotateContext(tag("Seasonal intervals", "Date ranges of a rate plan with their own prices per weekday, stay limits and restrictions (closed to arrival or departure, stop sell)."))
  .add(
    HttpApiEndpoint.get("list")`/rate-plans/${IdParam}/intervals`
      .annotateContext(doc("List a plan's intervals", "The seasonal intervals of a rate plan, in date order."))
      .addSuccess(ListOf(Interval))
      .annotate(RequiredScope, "rates:read")
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .add(
    HttpApiEndpoint.post("create")`/rate-plans/${IdParam}/intervals`
      .annotateContext(doc("Create an interval", "Adds a seasonal interval to a plan; it may not overlap another interval of the plan."))
      .setPayload(Rates.Interval.IntervalCreate)
      .addSuccess(IntervalCreated, Created)
      .addError(Errors.IntervalOverlap)
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .add(
    HttpApiEndpoint.get("get")`/intervals/${IdParam}`
      .annotateContext(doc("Get an interval", "One seasonal interval with its weekday prices and restrictions."))
      .addSuccess(Interval)
      .annotate(RequiredScope, "rates:read")
      .annotateContext(EntityTagged)
  )
  .add(
    HttpApiEndpoint.patch("update")`/intervals/${IdParam}`
      .annotateContext(doc("Update an interval", "Changes the fields sent; the interval may not come to overlap another."))
      .setPayload(Rates.Interval.IntervalPatch)
      .setHeaders(IfMatchHeaders)
      .addSuccess(IntervalUpdated)
      .addError(Errors.IntervalOverlap)
      .addError(Errors.PreconditionFailed)
  )
  .add(
    HttpApiEndpoint.del("delete")`/intervals/${IdParam}`
      .annotateContext(doc("Delete an interval", "Removes the interval; the plan's own prices apply to its dates again."))
      .setHeaders(IfMatchHeaders)
      .addSuccess(IntervalDeleted)
      .addError(Errors.PreconditionFailed)
  )
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, IntervalNotFound)
{}

/** A plan's inclusions: read with `rates:read`; POST replaces the whole list (`rates:write`). */
export class InclusionsApi extends HttpApiGroup.make("inclusions")
  .annotateContext(tag("Inclusions and credits", "What a rate plan includes: perks priced into the rate and credits spent against folio charges."))
  .add(
    HttpApiEndpoint.get("list")`/rate-plans/${IdParam}/inclusions`
      .annotateContext(doc("List a plan's inclusions", "The perks and credits included in a rate plan."))
      .addSuccess(ListOf(Inclusion))
      .annotate(RequiredScope, "rates:read")
  )
  .add(
    HttpApiEndpoint.post("replace")`/rate-plans/${IdParam}/inclusions`
      .annotateContext(doc("Replace a plan's inclusions", "Replaces the whole list of inclusions of the plan with the list sent."))
      .setPayload(Rates.Inclusion.InclusionsReplace)
      .addSuccess(InclusionsReplaced)
      .addError(Errors.ServiceNotFound)
  )
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, RatePlanNotFound)
{}

/** Promo codes: reads need `rates:read`, writes `rates:write`. */
export class PromoCodesApi extends HttpApiGroup.make("promoCodes")
  .annotateContext(tag("Promo codes", "Codes that unlock a rate plan that requires one, with validity dates and redemption limits."))
  .add(
    HttpApiEndpoint.get("list")`/rate-plans/${IdParam}/promo-codes`
      .annotateContext(doc("List a plan's promo codes", "The promo codes of a rate plan with their live redemptions."))
      .addSuccess(ListOf(PromoCode))
      .annotate(RequiredScope, "rates:read")
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .add(
    HttpApiEndpoint.post("create")`/rate-plans/${IdParam}/promo-codes`
      .annotateContext(doc("Create a promo code", "Adds a code to a plan; a code already in use is `promo_code_exists`."))
      .setPayload(Rates.PromoCode.PromoCodeCreate)
      .addSuccess(PromoCodeCreated, Created)
      .addError(Errors.PromoCodeExists)
      .annotate(NotFoundAs, RatePlanNotFound)
  )
  .add(
    HttpApiEndpoint.get("get")`/promo-codes/${IdParam}`
      .annotateContext(doc("Get a promo code", "One promo code with its validity and redemptions."))
      .addSuccess(PromoCode)
      .annotate(RequiredScope, "rates:read")
      .annotateContext(EntityTagged)
  )
  .add(
    HttpApiEndpoint.patch("update")`/promo-codes/${IdParam}`
      .annotateContext(doc("Update a promo code", "Changes the fields sent."))
      .setPayload(Rates.PromoCode.PromoCodePatch)
      .setHeaders(IfMatchHeaders)
      .addSuccess(PromoCodeUpdated)
      .addError(Errors.PreconditionFailed)
  )
  .add(
    HttpApiEndpoint.del("delete")`/promo-codes/${IdParam}`
      .annotateContext(doc("Delete a promo code", "Removes the code."))
      .setHeaders(IfMatchHeaders)
      .addSuccess(PromoCodeDeleted)
      .addError(Errors.PreconditionFailed)
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
