import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as Domain from "@hotel/domain"
import type { ApiKey, Scope } from "@hotel/domain"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import * as Errors from "./Errors.js"

/** The API key of the request, validated by the gateway. */
export class CurrentApiKey extends Context.Tag("@hotel/http/common/CurrentApiKey")<CurrentApiKey, ApiKey>() {}

/** Endpoint annotation: the scope an API key needs to call it. */
export class RequiredScope extends Context.Tag("@hotel/http/common/RequiredScope")<RequiredScope, Scope>() {}

/** Endpoint annotation: reachable without an API key (health checks, the API description). */
export class Public extends Context.Tag("@hotel/http/common/Public")<Public, true>() {}

/** Endpoint annotation: the `Cache-Control` of a successful response. */
export class CacheControl extends Context.Tag("@hotel/http/common/CacheControl")<CacheControl, string>() {}

export const shortCache = "private, max-age=60"
export const noStore = "no-store"

/**
 * Bearer authentication, then the key's rate limit and the endpoint's scope, once the router has chosen
 * the endpoint; hands the key to handlers and documents the scheme in OpenAPI.
 */
export class Authorization extends HttpApiMiddleware.Tag<Authorization>()("@hotel/http/common/Authorization", {
  failure: Schema.Union(Errors.MissingApiKey, Errors.InvalidApiKey, Errors.RateLimited, Errors.InsufficientScope),
  provides: CurrentApiKey,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/**
 * The body checks and the `Idempotency-Key` claim, after `Authorization` and before the handler decodes
 * the body; provides the request the handler decodes.
 */
export class RequestBody extends HttpApiMiddleware.Tag<RequestBody>()("@hotel/http/common/RequestBody", {
  failure: Schema.Union(
    Errors.InvalidParameters,
    Errors.InvalidJson,
    Errors.PayloadTooLarge,
    Errors.IdempotencyKeyReuse,
    Errors.IdempotencyInProgress
  ),
  provides: HttpServerRequest.HttpServerRequest
}) {}

/**
 * The connection of the request's idempotent transaction, as the handler's SQL statements find it: the same
 * service as `@effect/sql`'s `SqlClient.TransactionConnection` (the same key, checked where it is provided),
 * named here so that the contract imports nothing of SQL.
 */
export class RequestTransaction extends Context.Tag("@effect/sql/SqlClient/TransactionConnection")<
  RequestTransaction,
  readonly [connection: unknown, depth: number]
>() {}

/**
 * Runs the handler of a request with an `Idempotency-Key` inside the transaction that holds the key (opened
 * by `RequestBody`), so its change and its stored response commit together. Without a key it does nothing.
 */
export class IdempotentTransaction extends HttpApiMiddleware.Tag<IdempotentTransaction>()(
  "@hotel/http/common/IdempotentTransaction",
  { optional: true, provides: RequestTransaction }
) {}

/** A constructor of a not-found error, for a path id that cannot name a resource. */
export type NotFoundError = new(props: { readonly message: string }) =>
  | Domain.RatePlanNotFound
  | Domain.IntervalNotFound
  | Domain.PromoCodeNotFound
  | Domain.ReservationNotFound
  | Domain.BookingNotFound
  | Domain.BlockNotFound
  | Domain.OutOfOrderNotFound
  | Domain.RoomNotFound
  | Domain.RoomTypeNotFound
  | Domain.GuestNotFound
  | Domain.FolioNotFound
  | Domain.WebhookEndpointNotFound

/**
 * Endpoint annotation: the error for an `{id}` in the path that is not a resource of this property
 * (a malformed id names no resource either, so it is the same 404).
 */
export class NotFoundAs extends Context.Tag("@hotel/http/common/NotFoundAs")<NotFoundAs, NotFoundError>() {}
