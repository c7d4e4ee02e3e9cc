import * as HttpApiMiddleware from "@effect/platform/HttpApiMiddleware"
import * as HttpApiSecurity from "@effect/platform/HttpApiSecurity"
import type * as Domain from "@hotel/domain"
import type { ApiKey, Scope } from "@hotel/domain"
import * as Context from "effect/Context"
import * as Errors from "./Errors.js"

/** The API key of the request, validated by the gateway. */
export class CurrentApiKey extends Context.Tag("@hotel/http/CurrentApiKey")<CurrentApiKey, ApiKey>() {}

/** Endpoint annotation: the scope an API key needs to call it (interface 5, decisions 6). */
export class RequiredScope extends Context.Tag("@hotel/http/RequiredScope")<RequiredScope, Scope>() {}

/** Endpoint annotation: reachable without an API key (health checks, the API description). */
export class Public extends Context.Tag("@hotel/http/Public")<Public, true>() {}

/** Endpoint annotation: the `Cache-Control` of a successful response. */
export class CacheControl extends Context.Tag("@hotel/http/CacheControl")<CacheControl, string>() {}

export const shortCache = "private, max-age=60"
export const noStore = "no-store"

/**
 * Bearer authentication. The gateway authenticates every non-public request before routing reaches
 * a handler; this middleware hands the result to handlers and documents the scheme in OpenAPI.
 */
export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("@hotel/http/Authorization", {
  failure: Errors.MissingApiKey,
  provides: CurrentApiKey,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** A constructor of a not-found error, for a path id that cannot name a resource. */
export type NotFoundError = new(props: { readonly message: string }) =>
  | Domain.RatePlanNotFound
  | Domain.IntervalNotFound
  | Domain.PromoCodeNotFound
  | Domain.ReservationNotFound
  | Domain.GuestNotFound
  | Domain.FolioNotFound
  | Domain.WebhookEndpointNotFound

/**
 * Endpoint annotation: the error for an `{id}` in the path that is not a resource of this property
 * (a malformed id names no resource either, so it is the same 404).
 */
export class NotFoundAs extends Context.Tag("@hotel/http/NotFoundAs")<NotFoundAs, NotFoundError>() {}
