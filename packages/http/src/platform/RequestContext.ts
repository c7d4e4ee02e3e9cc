import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { InternalError } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import { currentRequestId, metaOf, toEnvelope } from "../common/Envelope.js"
import type { RecordRequest } from "./RequestMetrics.js"
import type { RouterLookup } from "./Routes.js"
import { noStore } from "../common/Security.js"

/** An error is never cached (a mutation's, a 404, a 429 or a 503 alike). */
const errorsNotStored = (response: HttpServerResponse.HttpServerResponse) =>
  response.status >= 400 && response.headers["cache-control"] === undefined
    ? HttpServerResponse.setHeader(response, "cache-control", noStore)
    : response

const newRequestId = () => `req_${globalThis.crypto.randomUUID().replace(/-/g, "")}`

const internalError = (requestId: string) =>
  HttpServerResponse.unsafeJson(
    toEnvelope(metaOf(InternalError), { _tag: "InternalError", message: "Internal server error" }, requestId),
    { status: 500 }
  )

/**
 * The request id on the server span. Only when tracing is on: without a span, `annotateCurrentSpan` builds
 * (and drops) an exception on every request.
 */
const annotateRequestSpan = (requestId: string) =>
  Effect.flatMap(FiberRef.get(FiberRef.currentTracerEnabled), (enabled) =>
    enabled ? Effect.annotateCurrentSpan("request_id", requestId) : Effect.void)

/** What no route matched is logged and counted under one name, so that scanners cannot grow the metrics. */
const unmatched = "unmatched"

// A load balancer asks every few seconds: at info level its checks would drown the traffic.
const isHealthCheck = (route: string) => route.startsWith("/health/")

/**
 * What every log line of the request carries: its id, and the client's own `X-Request-Id` beside it (never
 * as the request's id; echoed bounded, it is input, not ours).
 */
const logAnnotations = (request: HttpServerRequest.HttpServerRequest, requestId: string) => {
  const sent = request.headers["x-request-id"]
  return sent === undefined || sent.length === 0
    ? { request_id: requestId }
    : { request_id: requestId, client_request_id: sent.slice(0, 128) }
}

/**
 * The outermost wrapper: gives every request its `req_` id (header, error body, log line, trace span),
 * writes one access log line per request (health checks at debug level) and counts it, marks every error
 * answer `Cache-Control: no-store`, and answers
 * anything that escaped the API's own encoder with a plain 500 envelope.
 */
export const withRequestContext = <E, R>(
  app: HttpApp.Default<E, R>,
  routes: Effect.Effect<RouterLookup>,
  recordRequest: RecordRequest
): HttpApp.Default<never, R> =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const requestId = newRequestId()
    return Effect.gen(function*() {
      const started = yield* Clock.currentTimeNanos
      yield* annotateRequestSpan(requestId)
      const response = yield* app.pipe(
        Effect.locally(currentRequestId, requestId),
        Effect.catchAllCause((cause) =>
          Effect.logError("Request failed outside the API encoder", cause).pipe(Effect.as(internalError(requestId)))
        )
      )
      const elapsed = Math.round(Number((yield* Clock.currentTimeNanos) - started) / 10_000) / 100
      const lookup = yield* routes
      const route = Option.match(lookup.find(request.method, request.url), {
        onNone: () => unmatched,
        onSome: (found) => found.path
      })
      yield* Effect.annotateLogs(isHealthCheck(route) ? Effect.logDebug("request") : Effect.logInfo("request"), {
        method: request.method,
        route,
        status: response.status,
        duration_ms: elapsed
      })
      yield* recordRequest(route, request.method, response, elapsed)
      return HttpServerResponse.setHeader(errorsNotStored(response), "x-request-id", requestId)
    }).pipe(Effect.annotateLogs(logAnnotations(request, requestId)))
  })
