import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { PromoCodeNotFound, RatePlanNotFound, Rates } from "@hotel/domain"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { Authorization, NotFoundAs, RequiredScope } from "../Security.js"
import { Created, IdParam, ListOf } from "./Common.js"

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
  .middleware(Authorization)
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, PromoCodeNotFound)
{}
