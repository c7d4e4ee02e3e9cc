import * as HttpServerError from "effect/http/HttpServerError"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { DatabaseBusy, type ErrorMeta, InternalError, MaintenanceMode, MethodNotAllowed, UnknownRoute } from "@hotel/domain"
import { isDatabaseBusy } from "@hotel/persistence/database/DatabaseBusy"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { CurrentRequestId, metaOf, toEnvelope } from "@hotel/api/common/Envelope"
import { noStore } from "@hotel/api/common/Security"
import { withEntityTag } from "./ConditionalRead.js"
import { makeCors } from "./Cors.js"
import { makeMaintenanceCheck } from "./Maintenance.js"
import type { RouterLookup, ServedRoute } from "./Routes.js"

const hasBody = (method: string) => method === "POST" || method === "PATCH" || method === "PUT" || method === "DELETE"

/** A success's `Cache-Control`: `no-store` for an authenticated mutation, else the endpoint's annotation. */
const successHeaders = (route: Option.Option<ServedRoute>, response: HttpServerResponse.HttpServerResponse) => {
  if (response.status >= 300) return response
  const cache = Option.flatMap(route, ({ endpoint }) =>
    Option.flatMap(endpoint, (info) => hasBody(info.method) && !info.isPublic ? Option.some(noStore) : info.cacheControl))
  return Option.match(cache, {
    onNone: () => response,
    onSome: (value) => HttpServerResponse.setHeader(response, "cache-control", value)
  })
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

const unknownRouteMeta = metaOf(UnknownRoute)
const methodNotAllowedMeta = metaOf(MethodNotAllowed)
const maintenanceMeta = metaOf(MaintenanceMode)
const databaseBusyMeta = metaOf(DatabaseBusy)
const internalErrorMeta = metaOf(InternalError)

/**
 * The answer of a failure the gateway meets itself, outside any endpoint (so outside the API's encoder): the
 * contract's envelope under the request's id, with the error's status and the headers it carries.
 */
const answer = (
  meta: ErrorMeta,
  error: { readonly _tag: string; readonly message: string; readonly estimated_end?: string | undefined },
  headers?: Record<string, string>
) =>
  Effect.map(
    Effect.service(CurrentRequestId),
    (requestId) => HttpServerResponse.jsonUnsafe(toEnvelope(meta, error, requestId), { status: meta.status, ...(headers === undefined ? {} : { headers }) })
  )

const unknownRoute = (request: HttpServerRequest.HttpServerRequest) =>
  answer(unknownRouteMeta, new UnknownRoute({ message: `No endpoint ${request.method} ${quotedPath(request)}` }))

/** What the router could not serve: 405 with `Allow` when the path has other methods, else 404. */
const notRouted = (request: HttpServerRequest.HttpServerRequest, lookup: RouterLookup) => {
  const allow = lookup.methods(request.url)
  if (allow.length === 0) return unknownRoute(request)
  return answer(
    methodNotAllowedMeta,
    new MethodNotAllowed({ message: `${request.method} is not allowed on ${quotedPath(request)}; use ${allow.join(", ")}` }),
    { allow: allow.join(", ") }
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

/** Seconds a client waits before retrying a request the database was too busy for. */
const busyRetryAfterSeconds = 1

/**
 * Where infrastructure failures (defects) become answers: a statement that hit one of the connection's
 * bounds (statement, lock, idle-in-transaction or pool timeout) is 503 `database_busy` with `Retry-After`,
 * anything else 500 `internal_error`. Both are logged with their cause.
 */
const asServerError = (cause: Cause.Cause<unknown>) => {
  const defect = Result.getOrUndefined(Cause.findDefect(cause))
  return isDatabaseBusy(defect)
    ? Effect.logWarning("Database busy", cause).pipe(
      Effect.andThen(answer(
        databaseBusyMeta,
        new DatabaseBusy({ message: "The database is busy or unreachable; retry shortly" }),
        { "retry-after": String(busyRetryAfterSeconds) }
      ))
    )
    : Effect.logError("Unhandled defect", cause).pipe(
      Effect.andThen(answer(internalErrorMeta, new InternalError({ message: "Internal server error" })))
    )
}

const isRouteNotFound = (cause: Cause.Cause<unknown>): boolean => {
  const failure = Result.getOrUndefined(Cause.findError(cause))
  return HttpServerError.isHttpServerError(failure) && failure.reason._tag === "RouteNotFound"
}

/**
 * The steps that come before and around the router, in the contract's order: a CORS preflight from an allowed
 * origin (204, `Cors.ts`), maintenance (503, before anything else), then the router, whose "no route" becomes
 * 404 `unknown_route` or 405 `method_not_allowed`; the matched endpoint's middleware then checks the key, its
 * rate limit and scope, the body and the `Idempotency-Key` (`Authorization`, `RequestBody`), and answers the
 * endpoint's own errors (`ApiErrors`). Around it all: the `Cache-Control` and `ETag` of the answer (304 for a
 * current `If-None-Match`), and defects as 500 `internal_error` (503 `database_busy` for a connection bound).
 */
export const makeGateway = (routes: RouterLookup) =>
  Effect.gen(function*() {
    const checkMaintenance = yield* makeMaintenanceCheck
    const cors = yield* makeCors
    // Few steps, as it runs on every request: the route is found once and the checks chained directly.
    return <E>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E>) =>
      Effect.contextWith((context: Context.Context<HttpServerRequest.HttpServerRequest>) => {
        const request = Context.get(context, HttpServerRequest.HttpServerRequest)
        if (namesNoEndpoint(request.url)) return unknownRoute(request)
        const route = routes.find(request.method, request.url)
        const routed = checkMaintenance(route).pipe(
          Effect.matchCauseEffect({
            // A refusal is 503 `maintenance_mode`; a window that cannot be read (no database) is a defect like any.
            onFailure: (cause) => {
              const refusal = Result.getOrUndefined(Cause.findError(cause))
              return refusal === undefined
                ? asServerError(cause)
                : answer(maintenanceMeta, refusal.error, { "retry-after": String(refusal.retryAfterSeconds) })
            },
            // One frame for both outcomes: a success gets its headers, "no route" is 404 or 405, a defect 500 or
            // 503 (the endpoints answer their own errors).
            onSuccess: () =>
              Effect.matchCauseEffect(app, {
                onSuccess: (response) => Effect.succeed(withEntityTag(request, route, successHeaders(route, response))),
                onFailure: (cause) => isRouteNotFound(cause) ? notRouted(request, routes) : asServerError(cause)
              })
          })
        )
        return Effect.flatMap(
          cors.handle(request, () => routes.methods(request.url)),
          (preflight) => Option.isSome(preflight) ? Effect.succeed(preflight.value) : routed
        )
      })
  })
