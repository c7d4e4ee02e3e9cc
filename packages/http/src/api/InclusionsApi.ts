import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { RatePlanNotFound, Rates } from "@hotel/domain"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { Authorization, NotFoundAs, RequiredScope } from "../Security.js"
import { IdParam, ListOf } from "./Common.js"

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
  .middleware(Authorization)
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, RatePlanNotFound)
{}
