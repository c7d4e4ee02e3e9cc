import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import type * as Domain from "@hotel/domain"
import type { ApiKey, Scope } from "@hotel/domain"
import * as Context from "effect/Context"
import * as Errors from "./Errors.js"

/** The API key of the request, validated by the gateway. */
export class CurrentApiKey extends Context.Service<CurrentApiKey, ApiKey>()("@hotel/http/common/CurrentApiKey") {}

/** Endpoint annotation: the scope an API key needs to call it. */
export class RequiredScope extends Context.Service<RequiredScope, Scope>()("@hotel/http/common/RequiredScope") {}

/** Endpoint annotation: reachable without an API key (health checks, the API description). */
export class Public extends Context.Service<Public, true>()("@hotel/http/common/Public") {}

/** Endpoint annotation: the `Cache-Control` of a successful response. */
export class CacheControl extends Context.Service<CacheControl, string>()("@hotel/http/common/CacheControl") {}

export const shortCache = "private, max-age=60"
export const noStore = "no-store"

/**
 * The errors any endpoint may answer with, declared once for every endpoint (`common/Pipeline.ts`): those of
 * the gateway around the router (404/405, maintenance, a busy database, a stop, a failure of the server), of
 * the request pipeline, of a request the framework cannot decode (400 `invalid_parameters`), and of a path id
 * that names nothing (the resource's 404, `NotFoundAs`). Its implementation (`platform/ApiErrors.ts`) turns
 * the framework's decode failures into those errors and adds the headers some errors carry. The description
 * lists under each operation only those it can meet (`openapi/Responses.ts`).
 */
export class ApiErrors extends HttpApiMiddleware.Service<ApiErrors>()("@hotel/http/common/ApiErrors", {
  error: [
    Errors.InvalidParameters,
    Errors.InvalidJson,
    Errors.MissingApiKey,
    Errors.InvalidApiKey,
    Errors.InsufficientScope,
    Errors.UnknownRoute,
    Errors.MethodNotAllowed,
    Errors.PayloadTooLarge,
    Errors.IdempotencyKeyReuse,
    Errors.IdempotencyInProgress,
    Errors.RateLimited,
    Errors.MaintenanceMode,
    Errors.DatabaseBusy,
    // Besides the readiness check's: any request a stopping process could not finish in time (CutRequests.ts).
    Errors.ShuttingDown,
    Errors.InternalError,
    // A path id that is not this property's resource (or not an id at all) is that resource's 404.
    Errors.RatePlanNotFound,
    Errors.IntervalNotFound,
    Errors.PromoCodeNotFound,
    Errors.ReservationNotFound,
    Errors.BookingNotFound,
    Errors.GuestNotFound,
    Errors.FolioNotFound,
    Errors.BlockNotFound,
    Errors.OutOfOrderNotFound,
    Errors.RoomNotFound,
    Errors.RoomTypeNotFound,
    Errors.WebhookEndpointNotFound
  ]
}) {}

/**
 * Bearer authentication, then the key's rate limit and the endpoint's scope, once the router has chosen
 * the endpoint; hands the key to handlers and documents the scheme in OpenAPI.
 */
export class Authorization extends HttpApiMiddleware.Service<Authorization, { provides: CurrentApiKey }>()(
  "@hotel/http/common/Authorization",
  {
    error: [Errors.MissingApiKey, Errors.InvalidApiKey, Errors.RateLimited, Errors.InsufficientScope],
    security: { bearer: HttpApiSecurity.bearer }
  }
) {}

/**
 * The body checks and the `Idempotency-Key` claim, after `Authorization` and before the handler decodes
 * the body: the handler decodes the body read here, and with a key it runs in the transaction that holds the
 * key, so its change and its stored response commit together.
 */
export class RequestBody extends HttpApiMiddleware.Service<RequestBody>()("@hotel/http/common/RequestBody", {
  error: [
    Errors.InvalidParameters,
    Errors.InvalidJson,
    Errors.PayloadTooLarge,
    Errors.IdempotencyKeyReuse,
    Errors.IdempotencyInProgress
  ]
}) {}

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
export class NotFoundAs extends Context.Service<NotFoundAs, NotFoundError>()("@hotel/http/common/NotFoundAs") {}
