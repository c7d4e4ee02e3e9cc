import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Public, Authorization } from "../Security.js"
import { SalesContext, Scope } from "@hotel/domain"
import { Id, Timestamp } from "../Common.js"

export const Health = Schema.Struct({ status: Schema.Literal("ok") })

/** Liveness and readiness probes: no key, no rate limit, answered during maintenance. */
export class HealthApi extends HttpApiGroup.make("health")
  .add(HttpApiEndpoint.get("live", "/health/live").addSuccess(Health))
  .add(HttpApiEndpoint.get("ready", "/health/ready").addSuccess(Health))
  .annotate(Public, true)
{}

export const Me = Schema.Struct({
  api_key_id: Id,
  property_id: Id,
  scopes: Schema.Array(Scope),
  context: SalesContext,
  label: Schema.NullOr(Schema.String),
  expires_at: Schema.NullOr(Timestamp),
  request_id: Schema.String
})

/** `GET /me` needs only a valid key, whatever its scopes. */
export class MeApi extends HttpApiGroup.make("me")
  .add(HttpApiEndpoint.get("me", "/me").addSuccess(Me))
  .middleware(Authorization)
{}
