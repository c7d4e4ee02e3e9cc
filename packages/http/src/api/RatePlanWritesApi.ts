import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { RatePlanNotFound, Rates } from "@hotel/domain"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { Authorization, NotFoundAs, RequiredScope } from "../Security.js"
import { Created, IdParam } from "./Common.js"

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
  .middleware(Authorization)
  .annotate(RequiredScope, "rates:write")
  .annotate(NotFoundAs, RatePlanNotFound)
{}
