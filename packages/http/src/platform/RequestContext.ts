import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { InternalError } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as References from "effect/References"
import type { unhandled } from "effect/Types"
import { CurrentRequestId, metaOf, toEnvelope } from "@hotel/api/common/Envelope"
import { makeRequestMetrics } from "./RequestMetrics.js"
import { isHealthCheck, type RouterLookup } from "./Routes.js"
import { noStore } from "@hotel/api/common/Security"

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
  HttpServerResponse.jsonUnsafe(
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
  annotations: Readonly<Record<string, unknown>>,
  request: HttpServerRequest.HttpServerRequest,
  requestId: string
): Readonly<Record<string, unknown>> => {
  const sent = request.headers["x-request-id"]
  return sent === undefined || sent.length === 0
    ? { ...annotations, request_id: requestId }
    : { ...annotations, request_id: requestId, client_request_id: sent.slice(0, 128) }
}

/**
 * The outermost wrapper, run once per request (`serveApi`, `HttpLive.ts`). It gives the request its `req_` id
 * (header, error body, log lines, trace span), writes one access log line per request (health checks at debug
 * level) and counts it, marks every error answer `Cache-Control: no-store`, and answers anything that escaped
 * the steps inside with a plain 500 envelope.
 *
 * Each request is served to its end, whatever its client does. The Node server interrupts a request's fiber
 * when the client closes the connection (and the router makes each route interruptible again), and
 * `@effect/sql-pg` answers an interrupted query by cancelling it: under load that cancel waits for a
 * connection only it could free, and, late, cancels whatever that backend runs by then. So the request runs
 * in a fiber of its own that nothing interrupts: a write that has started reaches its commit or rollback (and
 * stores its response for its `Idempotency-Key`), and no cancel is ever sent. The client's fiber only waits for
 * its answer; a hang-up ends the wait, not the work. `statement_timeout`, `lock_timeout` and
 * `idle_in_transaction_session_timeout` (persistence's database layer) bound how long that work can take. The
 * request's fiber has the client fiber's context, so the headers the steps inside ask for
 * (`HttpEffect.appendPreResponseHandler`: a 401's challenge, a `Retry-After`, an `Allow`) reach the response
 * the server writes.
 *
 * Written with few steps, as it runs on every request: the request's fiber starts with the request's id and
 * log annotations in the one context it is given.
 */
export const makeRequestContext = (routes: RouterLookup) =>
  Effect.map(makeRequestMetrics, (recordRequest) => {
    const answered = (
      request: HttpServerRequest.HttpServerRequest,
      requestId: string,
      response: HttpServerResponse.HttpServerResponse,
      elapsedNanos: bigint
    ) => {
      const elapsed = Math.round(Number(elapsedNanos) / 10_000) / 100
      const route = Option.match(routes.find(request.method, request.url), {
        onNone: () => unmatched,
        onSome: (found) => found.path
      })
      const line = { method: request.method, route, status: response.status, duration_ms: elapsed }
      return Effect.annotateLogs(isHealthCheck(route) ? Effect.logDebug("request") : Effect.logInfo("request"), line).pipe(
        Effect.andThen(recordRequest(route, request.method, response, elapsed)),
        Effect.as(HttpServerResponse.setHeader(errorsNotStored(response), "x-request-id", requestId))
      )
    }

    const served = <E, R>(
      app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
      request: HttpServerRequest.HttpServerRequest,
      requestId: string
    ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R> =>
      Effect.flatMap(Effect.andThen(Effect.annotateCurrentSpan("request_id", requestId), Clock.currentTimeNanos), (startedAt) =>
        app.pipe(
          Effect.catchCause((cause) =>
            Effect.logError("Request failed outside the API encoder", cause).pipe(Effect.as(internalError(requestId)))
          ),
          Effect.zip(Clock.currentTimeNanos),
          Effect.flatMap(([response, endedAt]) => answered(request, requestId, response, endedAt - startedAt))
        ))

    return <E>(
      app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, HttpServerRequest.HttpServerRequest>
    ): Effect.Effect<HttpServerResponse.HttpServerResponse, unhandled, HttpServerRequest.HttpServerRequest> =>
      Effect.contextWith((context: Context.Context<HttpServerRequest.HttpServerRequest>) => {
        const request = Context.get(context, HttpServerRequest.HttpServerRequest)
        const requestId = newRequestId()
        requestIds.set(request.source, requestId)
        const annotations = withRequestAnnotations(
          Context.getUnsafe(context, References.CurrentLogAnnotations),
          request,
          requestId
        )
        const work = Effect.runForkWith(
          Context.add(Context.add(context, CurrentRequestId, requestId), References.CurrentLogAnnotations, annotations)
        )(served(app, request, requestId))
        // The server holds each request's fiber uninterruptible around the router: joined interruptibly, a stop's
        // bound can cut a request whose work is stuck (the detached work goes on until its own end).
        return Effect.interruptible(Fiber.join(work))
      })
  })
