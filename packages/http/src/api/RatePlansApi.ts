import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { RatePlanNotFound } from "@hotel/domain"
import { Authorization, CacheControl, NotFoundAs, RequiredScope, shortCache } from "../Security.js"
import { CancellationTier } from "./CatalogApi.js"
import { IdParam, ListOf } from "./Common.js"

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
  .middleware(Authorization)
  .annotate(RequiredScope, "catalog:read")
  .annotate(CacheControl, shortCache)
{}
