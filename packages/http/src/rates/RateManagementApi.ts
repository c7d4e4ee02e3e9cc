import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import * as Errors from "../common/Errors.js"
import { RatePlanNotFound, Rates, IntervalNotFound, PromoCodeNotFound } from "@hotel/domain"
import { NotFoundAs, RequiredScope } from "../common/Security.js"
import { Created, CurrencyCode, DateOnly, Id, IdParam, ListOf, Money, Timestamp } from "../common/Common.js"
import { doc, tag } from "../openapi/Docs.js"
import { EntityTagged, IfMatchHeaders } from "../common/EntityTags.js"

// What hangs off a rate plan and is managed on its own: seasonal intervals, inclusions and credits, promo
// codes (the rate plan itself is in ./Api.ts).

const Price = Schema.NullOr(Schema.String)

/** An interval as read: money in the plan's currency. */
export const Interval = Schema.Struct({
  id: Id,
  rate_plan_id: Id,
  name: Schema.String,
  start_date: DateOnly,
  end_date: DateOnly,
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
  extra_guest_charge: Money,
  single_guest_discount: Money,
  currency: CurrencyCode,
  created_at: Timestamp
})

export const IntervalCreated = Schema.Struct({ interval_id: Id })
export const IntervalUpdated = Schema.Struct({ interval_id: Id, updated: Schema.Literal(true) })
export const IntervalDeleted = Schema.Struct({ interval_id: Id, deleted: Schema.Literal(true) })

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

/** An inclusion or credit as read: the amount in its own currency. */
export const Inclusion = Schema.Struct({
  id: Id,
  label: Schema.String,
  allocated_amount: Money,
  frequency: Schema.Literal("perStay", "perNight", "perGuest", "perGuestPerNight"),
  inclusion_kind: Schema.Literal("perk", "credit"),
  revenue_category: Schema.Literal("room", "fnb", "spa", "excursions", "activities", "other"),
  service_item_id: Schema.NullOr(Id),
  currency: CurrencyCode,
  included_quantity: Schema.Int
})

export const InclusionsReplaced = Schema.Struct({ rate_plan_id: Id, count: Schema.Int })

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

/** A promo code as read, with its live redemptions. */
export const PromoCode = Schema.Struct({
  id: Id,
  rate_plan_id: Id,
  code: Schema.String,
  valid_from: Schema.NullOr(Schema.String),
  valid_to: Schema.NullOr(Schema.String),
  max_redemptions: Schema.NullOr(Schema.Int),
  max_per_guest: Schema.NullOr(Schema.Int),
  is_active: Schema.Boolean,
  times_redeemed: Schema.Int,
  created_at: Timestamp
})

export const PromoCodeCreated = Schema.Struct({ promo_code_id: Id, code: Schema.String })
export const PromoCodeUpdated = Schema.Struct({ promo_code_id: Id, updated: Schema.Literal(true) })
export const PromoCodeDeleted = Schema.Struct({ promo_code_id: Id, deleted: Schema.Literal(true) })

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
