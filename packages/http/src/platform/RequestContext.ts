import * as HttpApp from "effect/http/HttpEffect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as ServerError from "effect/http/HttpServerError"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { InternalError } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import * as FiberRefs from "effect/FiberRefs"
import * as HashMap from "effect/HashMap"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import { currentRequestId, metaOf, toEnvelope } from "../common/Envelope.js"
import { makeRequestMetrics } from "./RequestMetrics.js"
import { isHealthCheck, makeRouterLookup } from "./Routes.js"
import { noStore } from "../common/Security.js"

/** An error is never cached (a mutation's, a 404, a 429 or a 503 alike). */
const errorsNotStored = (response: HttpServerResponse.HttpServerResponse) =>
  response.status >= 400 && response.headers["cache-control"] === undefined
    ? HttpServerResponse.setHeader(response, "cache-control", noStore)
    : response

export const newRequestId = () => `req_${globalThis.crypto.randomUUID().replace(/-/g, "")}`

/**
 * The id each request being served was given, by the server's own request object (`HttpServerRequest.source`,
 * Node's `IncomingMessage`): a stop that cuts a request answers it outside the app (`CutRequests.ts`), and
 * its answer carries the id the request's log lines carry.
 */
const requestIds = new WeakMap<object, string>()

/** The id given to the request whose server-side object is `source`, once the app has taken it. */
export const requestIdOf = (source: object): string | undefined => requestIds.get(source)

const internalError = (requestId: string) =>
  HttpServerResponse.unsafeJson(
    toEnvelope(metaOf(InternalError), { _tag: "InternalError", message: "Internal server error" }, requestId),
    { status: 500 }
  )

/** What no route matched is logged and counted under one name, so that scanners cannot grow the metrics. */
const unmatched = "unmatched"

/**
 * The request's id and, when the client sent one, its own `X-Request-Id` (never as the request's id; echoed
 * bounded, it is input, not ours), added to what every log line of the request carries.
 */
const withRequestAnnotations = (
  annotations: HashMap.HashMap<string, unknown>,
  request: HttpServerRequest.HttpServerRequest,
  requestId: string
) => {
  const withId = HashMap.set(annotations, "request_id", requestId)
  const sent = request.headers["x-request-id"]
  return sent === undefined || sent.length === 0 ? withId : HashMap.set(withId, "client_request_id", sent.slice(0, 128))
}

const withFields = (annotations: HashMap.HashMap<string, unknown>, fields: Record<string, unknown>) => {
  let result = annotations
  for (const [key, value] of Object.entries(fields)) result = HashMap.set(result, key, value)
  return result
}

/**
 * The headers the steps inside asked for with `HttpApp.appendPreResponseHandler` (a 401's challenge, a
 * `Retry-After`, an `Allow`), applied here, in the request's own fiber: the fiber that waits for it inherits
 * nothing from it, so the server would never see them.
 */
const withPendingHeaders = (request: HttpServerRequest.HttpServerRequest) =>
(
  response: HttpServerResponse.HttpServerResponse
) =>
  Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, ServerError.ResponseError>((fiber) => {
    const pending = fiber.getFiberRef(HttpApp.currentPreResponseHandlers)
    return Option.isNone(pending) ? Effect.succeed(response) : pending.value(request, response)
  })

/**
 * The outermost wrapper, run once per request. It gives the request its `req_` id (header, error body, log
 * lines, trace span), writes one access log line per request (health checks at debug level) and counts it,
 * marks every error answer `Cache-Control: no-store`, and answers anything that escaped the API's own encoder
 * with a plain 500 envelope.
 *
 * Each request is served to its end, whatever its client does. The Node server interrupts a request's fiber
 * when the client closes the connection (and the router makes each route interruptible again), and
 * `@effect/sql-pg` answers an interrupted query with `pg_cancel_backend` sent through the same pool: under
 * load that cancel waits for a connection only it could free, and, late, cancels whatever that backend runs
 * by then. So the request runs in a fiber of its own that nothing interrupts: a write that has started
 * reaches its commit or rollback (and stores its response for its `Idempotency-Key`), and no cancel is ever
 * sent. The client's fiber only waits for its answer; a hang-up ends the wait, not the work.
 * `statement_timeout`, `lock_timeout` and `idle_in_transaction_session_timeout` (`Sql.ts`) bound how long
 * that work can take.
 *
 * Written with few steps, as it runs on every request. The request's fiber is started from the server's
 * runtime with the client fiber's context and, in the same copy of its refs, the request's id and log
 * annotations: `Effect.forkDaemon` would copy them three more times, and `FiberRef.set` once per ref.
 */
export const makeRequestContext = Effect.gen(function*() {
  const routes = yield* makeRouterLookup
  const recordRequest = yield* makeRequestMetrics
  const runtime = yield* Effect.runtime<never>()

  const answered = (
    request: HttpServerRequest.HttpServerRequest,
    requestId: string,
    response: HttpServerResponse.HttpServerResponse,
    elapsedNanos: bigint
  ) =>
    Effect.flatMap(routes, (lookup) => {
      const elapsed = Math.round(Number(elapsedNanos) / 10_000) / 100
      const route = Option.match(lookup.find(request.method, request.url), {
        onNone: () => unmatched,
        onSome: (found) => found.path
      })
      const line = { method: request.method, route, status: response.status, duration_ms: elapsed }
      // The access line's fields join the request's annotations for good: nothing logs after it.
      return Effect.andThen(
        FiberRef.update(FiberRef.currentLogAnnotations, (annotations) => withFields(annotations, line)),
        isHealthCheck(route) ? Effect.logDebug("request") : Effect.logInfo("request")
      ).pipe(
        Effect.andThen(recordRequest(route, request.method, response, elapsed)),
        Effect.as(HttpServerResponse.setHeader(errorsNotStored(response), "x-request-id", requestId))
      )
    })

  const served = <E, R>(app: HttpApp.Default<E, R>, request: HttpServerRequest.HttpServerRequest, requestId: string) =>
    Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest>(
      (fiber) => {
        // Only when tracing is on: without a span, `annotateCurrentSpan` builds (and drops) an exception.
        const annotated = fiber.getFiberRef(FiberRef.currentTracerEnabled)
          ? Effect.annotateCurrentSpan("request_id", requestId)
          : Effect.void
        return Effect.flatMap(Effect.andThen(annotated, Clock.currentTimeNanos), (startedAt) =>
          app.pipe(
            Effect.flatMap(withPendingHeaders(request)),
            Effect.catchAllCause((cause) =>
              Effect.logError("Request failed outside the API encoder", cause).pipe(Effect.as(internalError(requestId)))
            ),
            Effect.zip(Clock.currentTimeNanos),
            Effect.flatMap(([response, endedAt]) => answered(request, requestId, response, endedAt - startedAt))
          ))
      }
    )

  return <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<never, R> =>
    Effect.contextWithEffect((context: Context.Context<R | HttpServerRequest.HttpServerRequest>) => {
      const request = Context.get(context, HttpServerRequest.HttpServerRequest)
      const requestId = newRequestId()
      if (typeof request.source === "object" && request.source !== null) requestIds.set(request.source, requestId)
      const fiber = Runtime.runFork(
        Runtime.make({ context, fiberRefs: runtime.fiberRefs, runtimeFlags: runtime.runtimeFlags }),
        served(app, request, requestId),
        {
          updateRefs: (refs, fiberId) =>
            FiberRefs.updateManyAs(refs, {
              entries: [
                [currentRequestId, [[fiberId, requestId]]],
                [FiberRef.currentLogAnnotations, [[
                  fiberId,
                  withRequestAnnotations(FiberRefs.getOrDefault(refs, FiberRef.currentLogAnnotations), request, requestId)
                ]]]
              ]
            })
        }
      )
      return Effect.flatten(Fiber.await(fiber))
    })
})
