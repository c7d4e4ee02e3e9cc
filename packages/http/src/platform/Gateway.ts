import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { HttpApiDecodeError } from "effect/http-api/HttpApiError"
import * as HttpApp from "effect/http/HttpEffect"
import { RouteNotFound } from "effect/http/HttpServerError"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import {
  DatabaseBusy,
  IdempotencyInProgress,
  InternalError,
  InvalidApiKey,
  type InvalidParameters,
  MethodNotAllowed,
  MissingApiKey,
  ShuttingDown,
  UnknownRoute
} from "@hotel/domain"
import { isDatabaseBusy } from "@hotel/persistence/database/DatabaseBusy"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { HotelApi } from "../Api.js"
import { noStore, type NotFoundError } from "../common/Security.js"
import { withEntityTag } from "./ConditionalRead.js"
import { makeCors } from "./Cors.js"
import { fromDecodeError } from "./DecodeErrors.js"
import { makeIdempotency } from "./Idempotency.js"
import { makeMaintenanceCheck } from "./Maintenance.js"
import { type EndpointInfo, makeRouterLookup, type RouterLookup } from "./Routes.js"

const hasBody = (method: string) => method === "POST" || method === "PATCH" || method === "PUT" || method === "DELETE"

/** A success's `Cache-Control`: `no-store` for an authenticated mutation, else the endpoint's annotation. */
const successHeaders = (endpoint: Option.Option<EndpointInfo>, response: HttpServerResponse.HttpServerResponse) => {
  if (response.status >= 300) return response
  const cache = Option.flatMap(endpoint, (info) =>
    hasBody(info.method) && !info.isPublic ? Option.some(noStore) : info.cacheControl)
  return Option.match(cache, {
    onNone: () => response,
    onSome: (value) => HttpServerResponse.setHeader(response, "cache-control", value)
  })
}

/**
 * Headers an error answer carries beside its envelope: the 401 challenge, the retry hint of a key in use and
 * of a stopping process (through the balancer, another instance answers the retry).
 */
const failureHeaders = (cause: Cause.Cause<unknown>) => {
  const failure = Cause.failureOption(cause).pipe(Option.getOrUndefined)
  const headers = failure instanceof MissingApiKey || failure instanceof InvalidApiKey
    ? { "www-authenticate": "Bearer" }
    : failure instanceof IdempotencyInProgress || failure instanceof ShuttingDown
    ? { "retry-after": "1" }
    : undefined
  return headers === undefined ? Effect.void : HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers)))
}

/** Longest path an error message repeats: a path may be up to a megabyte long, its message need not be. */
const quotedPathLength = 200

/** The path of a URL as sent, without its query: the URL parser would resolve dot segments the router does not. */
const pathOf = (url: string): string => url.split("?")[0] ?? url

/** The path as sent, cut for a message. */
const quotedPath = (request: HttpServerRequest.HttpServerRequest): string => {
  const path = pathOf(request.url)
  return path.length > quotedPathLength ? `${path.slice(0, quotedPathLength)}...` : path
}

const unknownRoute = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.fail(new UnknownRoute({ message: `No endpoint ${request.method} ${quotedPath(request)}` }))

/** What the router could not serve: 405 with `Allow` when the path has other methods, else 404. */
const notRouted = (request: HttpServerRequest.HttpServerRequest, lookup: RouterLookup) => {
  const path = quotedPath(request)
  const allow = lookup.methods(request.url)
  if (allow.length === 0) return unknownRoute(request)
  return Effect.andThen(
    HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "allow", allow.join(", ")))),
    Effect.fail(new MethodNotAllowed({ message: `${request.method} is not allowed on ${path}; use ${allow.join(", ")}` }))
  )
}

/**
 * Whether the path names no endpoint although the router would serve one: 404 `unknown_route`.
 * - A `.` or `..` segment, percent-encoded or not (`/reservations/%2e%2e`), is not resolved: the router would
 *   take `..` for an id (`/reservations/..` is not a missing reservation, it names no endpoint).
 * - A `;` or a `#`: the router ends the path at either (`/me;x` would be served as `/me`, `/reservations;limit=2`
 *   read `limit` from it), while for HTTP they are characters of the path.
 */
const namesNoEndpoint = (url: string): boolean => {
  const path = pathOf(url)
  return /[;#]/.test(path) || path.split("/").some((segment) => /^(\.|%2e){1,2}$/i.test(segment))
}

/**
 * The router's own failures as the contract's: no route (404/405), and the framework's decode error
 * (an `{id}` that names nothing is the resource's 404, anything else `invalid_parameters`).
 */
const routerFailures = (request: HttpServerRequest.HttpServerRequest, lookup: RouterLookup) =>
<E>(
  cause: Cause.Cause<E>
): Effect.Effect<never, E | UnknownRoute | MethodNotAllowed | InvalidParameters | InstanceType<NotFoundError>> => {
  const failure = Cause.squash(cause)
  if (failure instanceof RouteNotFound) return notRouted(request, lookup)
  if (failure instanceof HttpApiDecodeError) {
    return Effect.fail(fromDecodeError(failure, lookup.endpoint(request.method, request.url)))
  }
  return Effect.failCause(cause)
}

/** Seconds a client waits before retrying a request the database was too busy for. */
const busyRetryAfterSeconds = 1

/**
 * Where infrastructure failures (defects) become answers: a statement that hit one of the connection's
 * bounds (statement, lock, idle-in-transaction or pool timeout) is 503 `database_busy` with `Retry-After`,
 * anything else 500 `internal_error`. Both are logged with their cause.
 */
const asServerError = (defect: unknown): Effect.Effect<never, DatabaseBusy | InternalError> =>
  isDatabaseBusy(defect)
    ? Effect.logWarning("Database busy", Cause.die(defect)).pipe(
      Effect.andThen(HttpApp.appendPreResponseHandler((_request, response) =>
        Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(busyRetryAfterSeconds))))),
      Effect.andThen(Effect.fail(new DatabaseBusy({ message: "The database is busy or unreachable; retry shortly" })))
    )
    : Effect.logError("Unhandled defect", Cause.die(defect)).pipe(
      Effect.andThen(Effect.fail(new InternalError({ message: "Internal server error" })))
    )

/** A failed request's answer: a defect as 500 or 503, any other failure with its headers as the contract's error. */
const failed = <E>(
  request: HttpServerRequest.HttpServerRequest,
  lookup: RouterLookup,
  cause: Cause.Cause<E>
): Effect.Effect<
  never,
  E | DatabaseBusy | InternalError | UnknownRoute | MethodNotAllowed | InvalidParameters | InstanceType<NotFoundError>
> => {
  const defect = Cause.dieOption(cause)
  return Option.isSome(defect)
    ? asServerError(defect.value)
    : Effect.andThen(failureHeaders(cause), routerFailures(request, lookup)(cause))
}

/**
 * The steps that come before and around the router, in the contract's order: a CORS preflight from an
 * allowed origin (204, `Cors.ts`), maintenance (503, before anything else), then the router, whose "no route" becomes 404 `unknown_route` or 405
 * `method_not_allowed`; the matched endpoint's middleware then checks the key, its rate limit and scope,
 * the body and the `Idempotency-Key` (`Authorization`, `RequestBody`). Around it all: the commit (with the
 * stored response) or rollback of a keyed request's transaction, the `Cache-Control` and `ETag` of the answer
 * (304 for a current `If-None-Match`), the headers some errors need (`WWW-Authenticate`, `Retry-After`), and
 * defects as 500 `internal_error` (503 `database_busy` for a connection bound).
 */
export const GatewayLive = HttpApiBuilder.middleware(
  HotelApi,
  Effect.gen(function*() {
    const routes = yield* makeRouterLookup
    const checkMaintenance = yield* makeMaintenanceCheck
    const idempotency = yield* makeIdempotency
    const cors = yield* makeCors
    // Few steps, as it runs on every request: the route is found once and the checks chained directly.
    return (app: HttpApp.Default) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        Effect.flatMap(routes, (lookup) => {
          if (namesNoEndpoint(request.url)) return unknownRoute(request)
          const route = lookup.find(request.method, request.url)
          // One frame for both outcomes: a success gets its headers, a defect becomes 500 or 503, any other
          // failure its headers and the contract's error (the router fails with its own errors although the
          // app's type says it cannot fail).
          const routed = Effect.andThen(checkMaintenance(route), idempotency.settled(request, app)).pipe(
            Effect.matchCauseEffect({
              onSuccess: (response) => {
                const endpoint = lookup.endpointOf(route)
                return Effect.succeed(withEntityTag(request, endpoint, successHeaders(endpoint, response)))
              },
              onFailure: (cause) => failed(request, lookup, cause)
            })
          )
          return Effect.flatMap(
            cors.handle(request, () => lookup.methods(request.url)),
            (preflight) => Option.isSome(preflight) ? Effect.succeed(preflight.value) : routed
          )
        }))
  })
)
