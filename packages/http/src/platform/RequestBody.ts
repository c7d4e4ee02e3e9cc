import * as Headers from "effect/http/Headers"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { InvalidJson, MissingApiKey } from "@hotel/domain"
import * as JsonDepth from "@hotel/domain/platform/JsonDepth"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { CurrentApiKey, RequestBody } from "@hotel/api/common/Security"
import { makeIdempotency } from "./Idempotency.js"
import { readLimited } from "./LimitedBody.js"

export const maxBodyBytes = 1024 * 1024

const hasBody = (method: string) => method === "POST" || method === "PATCH" || method === "PUT" || method === "DELETE"

// Depth is checked on the raw text first, so nothing recursive (the parser, the decoder's error formatter,
// the idempotency fingerprint) ever sees a deeply nested body.
const parse = (text: string) =>
  text.trim().length === 0 ? Effect.succeed<unknown>({}) : JsonDepth.exceeds(text)
  ? Effect.fail(new InvalidJson({ message: "The request body nests deeper than 64 levels" }))
  : Effect.try({
    try: () => JSON.parse(text) as unknown,
    catch: () => new InvalidJson({ message: "The request body is not valid JSON" })
  })

/**
 * The request as the handler decodes it: the client's request (URL, headers, peer address, everything else
 * delegated to it) with the body already read, so the handler's decoder does not read a stream again; an empty
 * body is `{}`, and a body sent without a JSON content type is still read as JSON.
 */
const withBody = (request: HttpServerRequest.HttpServerRequest, text: string, json: unknown) => {
  const read: HttpServerRequest.HttpServerRequest = Object.create(request, {
    headers: { value: Headers.set(request.headers, "content-type", "application/json") },
    text: { value: Effect.succeed(text) },
    json: { value: Effect.succeed(json) }
  })
  return read
}

/**
 * The steps between the scope check and the handler of a mutation: the body's size (413) and syntax
 * (`invalid_json`), then the `Idempotency-Key` claim (`Idempotency.ts`: with a key, the handler runs in the
 * transaction that holds it). Requests without a body pass untouched.
 */
export const RequestBodyLive = Layer.effect(
  RequestBody,
  Effect.map(makeIdempotency, (idempotent) =>
    RequestBody.of((httpEffect) =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        if (!hasBody(request.method)) return httpEffect
        const key = Context.getOption(fiber.context, CurrentApiKey)
        if (Option.isNone(key)) return Effect.die(new MissingApiKey({ message: "Body checked before authentication" }))
        return Effect.gen(function*() {
          const text = yield* readLimited(request, maxBodyBytes)
          const body = yield* parse(text)
          const read = withBody(request, text.trim().length === 0 ? "{}" : text, body)
          return yield* idempotent(
            { request, key: key.value, body },
            Effect.provideService(httpEffect, HttpServerRequest.HttpServerRequest, read)
          )
        })
      })))
)
