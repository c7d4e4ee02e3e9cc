import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { SalesContext, Scope } from "@hotel/domain"
import * as Schema from "effect/Schema"
import { Authorization } from "../Security.js"

export const Me = Schema.Struct({
  api_key_id: Schema.String,
  property_id: Schema.String,
  scopes: Schema.Array(Scope),
  context: SalesContext,
  label: Schema.NullOr(Schema.String),
  expires_at: Schema.NullOr(Schema.String),
  request_id: Schema.String
})

/** `GET /me` needs only a valid key, whatever its scopes. */
export class MeApi extends HttpApiGroup.make("me")
  .add(HttpApiEndpoint.get("me", "/me").addSuccess(Me))
  .middleware(Authorization)
{}
