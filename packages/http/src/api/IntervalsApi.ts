import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { IntervalNotFound, RatePlanNotFound, Rates } from "@hotel/domain"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { Authorization, NotFoundAs, RequiredScope } from "../Security.js"
import { Created, IdParam, ListOf } from "./Common.js"

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
  .middleware(Authorization)
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, IntervalNotFound)
{}
