import * as HttpApi from "@effect/platform/HttpApi"
import { InclusionsApi, IntervalsApi, PromoCodesApi } from "./RateManagementApi.js"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import * as Errors from "../common/Errors.js"
import { RatePlanNotFound, Rates } from "@hotel/domain"
import { CacheControl, NotFoundAs, RequiredScope, shortCache } from "../common/Security.js"
import { CancellationTier } from "../catalog/Api.js"
import { Created, CurrencyCode, Id, IdParam, ListOf, Money, Timestamp } from "../common/Common.js"
import { doc, tag } from "../openapi/Docs.js"
import { EntityTagged, IfMatchHeaders } from "../common/EntityTags.js"

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

/** The `rates` feature's endpoint groups: rate plans, their intervals, inclusions and promo codes. `Api.ts` adds them to `HotelApi`. */
export const RatesGroups = HttpApi.make("hotel")
  .add(RatePlanReadsApi)
  .add(RatePlanWritesApi)
  .add(IntervalsApi)
  .add(InclusionsApi)
  .add(PromoCodesApi)
