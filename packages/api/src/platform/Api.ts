import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Authorization, Public } from "../common/Security.js"
import { SalesContext, Scope } from "@hotel/domain"
import { Id, RequestId, Timestamp } from "../common/Common.js"
import { withApiErrors } from "../common/Pipeline.js"
import { doc, tag } from "../openapi/Docs.js"
import * as Errors from "../common/Errors.js"

export const Health = Schema.Struct({ status: Schema.Literal("ok") }).annotate({ identifier: "Health" })

/** Liveness and readiness probes: no key, no rate limit, answered during maintenance. */
export class HealthApi extends HttpApiGroup.make("health")
  .annotateMerge(tag("Health", "Liveness and readiness probes for load balancers and orchestrators. No API key, no rate limit, answered during maintenance."))
  .add(
    HttpApiEndpoint.get("live", "/health/live", { disableCodecs: true, success: Health })
      .annotateMerge(doc("Liveness probe", "Answers 200 while the process runs; it does not touch the database."))
  )
  .add(
    HttpApiEndpoint.get("ready", "/health/ready", {
      disableCodecs: true,
      success: Health,
      error: [Errors.ShuttingDown, Errors.DatabaseBusy]
    })
      .annotateMerge(doc("Readiness probe", "Answers 200 when the server can reach its database and serve requests; 503 `shutting_down` from the moment the process is asked to stop (it still serves for a drain delay, so a balancer checking this stops sending first)."))
  )
  .annotate(Public, true)
{}

export const Me = Schema.Struct({
  api_key_id: Id,
  property_id: Id,
  scopes: Schema.Array(Scope),
  context: SalesContext,
  label: Schema.NullOr(Schema.String),
  expires_at: Schema.NullOr(Timestamp),
  request_id: RequestId
}).annotate({ identifier: "Me" })

/** `GET /me` needs only a valid key, whatever its scopes. */
export class MeApi extends HttpApiGroup.make("me")
  .annotateMerge(tag("API key", "Who is calling: the API key's property, scopes and sales context."))
  .add(
    HttpApiEndpoint.get("me", "/me", { disableCodecs: true, success: Me })
      .annotateMerge(doc("Describe the calling key", "The API key behind the request: its property, scopes, sales context, label and expiry, with this request's id."))
  )
  .middleware(Authorization)
{}

/**
 * The `platform` feature's endpoint groups, outside the request pipeline: the health checks are public, and
 * `/me` takes no body, so it needs only the key's check.
 */
export const PlatformGroups = withApiErrors(
  HttpApi.make("hotel")
    .add(HealthApi)
    .add(MeApi)
)
