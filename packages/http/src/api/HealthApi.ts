import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Public } from "../Security.js"

export const Health = Schema.Struct({ status: Schema.Literal("ok") })

/** Liveness and readiness probes: no key, no rate limit, answered during maintenance. */
export class HealthApi extends HttpApiGroup.make("health")
  .add(HttpApiEndpoint.get("live", "/health/live").addSuccess(Health))
  .add(HttpApiEndpoint.get("ready", "/health/ready").addSuccess(Health))
  .annotate(Public, true)
{}
