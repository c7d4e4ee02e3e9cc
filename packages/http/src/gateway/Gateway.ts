import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { InsufficientScope, InternalError, MethodNotAllowed, UnknownRoute } from "@hotel/domain"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { HotelApi } from "../Api.js"
import { noStore } from "../Security.js"
import { authenticatedKey } from "./CurrentKey.js"
import { fromDecodeError } from "./DecodeErrors.js"
import { makeIdempotency } from "./Idempotency.js"
import { makeMaintenanceCheck } from "./Maintenance.js"
import { makeRateLimits } from "./RateLimit.js"
import { parsedRequest } from "./RequestBody.js"
import { makeRouteTable, type RouteInfo } from "./RouteTable.js"

const hasBody = (method: string) => method === "POST" || method === "PATCH" || method === "PUT" || method === "DELETE"

/** Adds headers to whatever response the request ends with, the encoder's error responses included. */
const withHeaders = (headers: Record<string, string>) =>
  HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))

/** An error is never cached (a mutation's, a 404, a 429 or a 503 alike). */
const errorsNotStored = HttpApp.appendPreResponseHandler((_request, response) =>
  Effect.succeed(
    response.status >= 400 && response.headers["cache-control"] === undefined
      ? HttpServerResponse.setHeader(response, "cache-control", noStore)
      : response
  )
)

const successHeaders = (route: RouteInfo, response: HttpServerResponse.HttpServerResponse) => {
  if (response.status >= 300) return response
  const cache = hasBody(route.method) && !route.isPublic ? Option.some(noStore) : route.cacheControl
  return Option.match(cache, {
    onNone: () => response,
    onSome: (value) => HttpServerResponse.setHeader(response, "cache-control", value)
  })
}

/**
 * Everything the contract asks of a request before and around its handler, in the contract's order:
 * maintenance (503), route (404/405), authentication (401, failures limited per address), rate limit per key
 * (429), scope (403), body (413/400), `Idempotency-Key` (400/409, claim), then the handler, whose framework
 * failures are mapped onto the contract's codes, and the key's store or release.
 * The routes are those of the API being served (`HotelApi`, or a test's extension of it).
 */
export const GatewayLive = HttpApiBuilder.middleware(
  HotelApi,
  Effect.gen(function*() {
    const routes = makeRouteTable((yield* HttpApi.Api).api)
    const checkMaintenance = yield* makeMaintenanceCheck
    const limits = yield* makeRateLimits
    const idempotent = yield* makeIdempotency
    return (app: HttpApp.Default) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const url = new URL(request.url, "http://localhost")
        yield* errorsNotStored
        const match = routes.match(request.method, url.pathname)
        yield* checkMaintenance(match)
        if (match._tag === "NotFound") {
          return yield* new UnknownRoute({ message: `No endpoint ${request.method} ${url.pathname}` })
        }
        if (match._tag === "MethodNotAllowed") {
          yield* withHeaders({ allow: match.allow.join(", ") })
          return yield* new MethodNotAllowed({
            message: `${request.method} is not allowed on ${url.pathname}; use ${match.allow.join(", ")}`
          })
        }
        const route = match.route
        if (route.isPublic) return yield* app

        const key = yield* limits.authenticate(request)
        yield* limits.limitKey(key)
        if (Option.isSome(route.scope) && !key.hasScope(route.scope.value)) {
          return yield* new InsufficientScope({ message: `This endpoint needs the scope ${route.scope.value}` })
        }
        // The router fails with the framework's decode error although the app's type says it cannot fail.
        const decoded = Effect.catchAllCause(app, (cause) => {
          const failure = Cause.squash(cause)
          return failure instanceof HttpApiDecodeError
            ? Effect.fail(fromDecodeError(failure, route))
            : Effect.failCause(cause)
        })
        if (!hasBody(request.method)) {
          return successHeaders(route, yield* decoded.pipe(Effect.locally(authenticatedKey, Option.some(key))))
        }
        const parsed = yield* parsedRequest(request)
        const handled = Effect.provideService(decoded, HttpServerRequest.HttpServerRequest, parsed.request).pipe(
          Effect.locally(authenticatedKey, Option.some(key))
        )
        const response = yield* idempotent(
          { request, key, pathAndQuery: url.pathname + url.search, body: parsed.body },
          handled
        )
        return successHeaders(route, response)
      }).pipe(
        Effect.catchAllDefect((defect) =>
          Effect.logError("Unhandled defect", Cause.die(defect)).pipe(
            Effect.zipRight(Effect.fail(new InternalError({ message: "Internal server error" })))
          )
        )
      )
  })
)
