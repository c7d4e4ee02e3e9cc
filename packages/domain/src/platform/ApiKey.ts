import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

export const Scope = Schema.Literals(["rates:read",
  "rates:write",
  "reservations:read",
  "reservations:write",
  "catalog:read",
  "guests:read",
  "guests:write",
  "folios:write",
  "events:read",
  "webhooks:read",
  "webhooks:write",
  "blocks:read",
  "blocks:write",
  "inventory:read",
  "inventory:write"])
export type Scope = typeof Scope.Type

export const allScopes: ReadonlyArray<Scope> = Scope.literals

export const SalesContext = Schema.Literals(["back_office", "booking_engine", "channel"])
export type SalesContext = typeof SalesContext.Type

/** A validated API key as the request sees it; the secret itself is never kept. */
export class ApiKey extends Schema.Class<ApiKey>("ApiKey")({
  id: Schema.String,
  propertyId: Schema.String,
  scopes: Schema.Array(Scope),
  context: SalesContext,
  label: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.Date),
  /** Requests per minute for this key alone (set by the operator); absent or null is the default 600. */
  rateLimit: Schema.NullOr(Schema.Int).pipe(Schema.withDecodingDefaultType(Effect.succeed(null)))
}) {
  hasScope(scope: Scope): boolean {
    return this.scopes.includes(scope)
  }
}
