import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { InternalError } from "@hotel/domain"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { currentRequestId, metaOf, toEnvelope } from "../Envelope.js"

const newRequestId = () => `req_${globalThis.crypto.randomUUID().replace(/-/g, "")}`

const internalError = (requestId: string) =>
  HttpServerResponse.unsafeJson(
    toEnvelope(metaOf(InternalError), { _tag: "InternalError", message: "Internal server error" }, requestId),
    { status: 500 }
  )

/**
 * The outermost wrapper: gives every request its `req_` id (header, error body, log line), writes one
 * log line per request, and answers anything that escaped the API's own encoder with a plain 500 envelope.
 */
export const withRequestContext = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<never, R> =>
  Effect.suspend(() => {
    const requestId = newRequestId()
    return Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const started = yield* Clock.currentTimeMillis
      const response = yield* app.pipe(
        Effect.locally(currentRequestId, requestId),
        Effect.catchAllCause((cause) =>
          Effect.logError("Request failed outside the API encoder", Cause.pretty(cause)).pipe(
            Effect.as(internalError(requestId))
          )
        )
      )
      const elapsed = (yield* Clock.currentTimeMillis) - started
      yield* Effect.logInfo(`${request.method} ${request.url} ${response.status} ${elapsed}ms`)
      return HttpServerResponse.setHeader(response, "x-request-id", requestId)
    }).pipe(Effect.annotateLogs("request_id", requestId), withClientRequestId)
  })

/** The client's own `X-Request-Id` is never the request's id, only logged beside it (bounded in length). */
const withClientRequestId = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const client = request.headers["x-request-id"]
    return client === undefined ? self : Effect.annotateLogs(self, "client_request_id", client.slice(0, 200))
  })
