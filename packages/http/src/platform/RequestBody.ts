import * as Headers from "effect/http/Headers"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { InvalidJson, MissingApiKey } from "@hotel/domain"
import * as JsonDepth from "@hotel/domain/platform/JsonDepth"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { CurrentApiKey, RequestBody } from "../common/Security.js"
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
 * delegated to it) with the body already read and parsed, so the handler's decoder neither reads a stream
 * again nor parses the JSON twice; an empty body is `{}`, and a body sent without a JSON content type is still
 * read as JSON.
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
 * (`invalid_json`), then the `Idempotency-Key` claim. Requests without a body pass untouched.
 */
export const RequestBodyLive = Layer.effect(
  RequestBody,
  Effect.gen(function*() {
    const idempotency = yield* makeIdempotency
    return Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (!hasBody(request.method)) return request
      const key = yield* Effect.serviceOption(CurrentApiKey)
      if (Option.isNone(key)) return yield* Effect.die(new MissingApiKey({ message: "Body checked before authentication" }))
      const text = yield* readLimited(request, maxBodyBytes)
      const body = yield* parse(text)
      yield* idempotency.claim({ request, key: key.value, body })
      return withBody(request, text.trim().length === 0 ? "{}" : text, body)
    })
  })
)
