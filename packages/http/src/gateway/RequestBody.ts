import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { InvalidJson, PayloadTooLarge } from "@hotel/domain"
import * as JsonDepth from "@hotel/domain/platform/JsonDepth"
import * as Effect from "effect/Effect"

export const maxBodyBytes = 1024 * 1024

/**
 * Reads and parses the body once, before the handler decodes it, so that malformed JSON is the
 * contract's 400 `invalid_json` rather than a framework defect, an empty body is `{}`, and a body sent
 * without a JSON content type is still read as JSON.
 */
export const parsedRequest = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > maxBodyBytes) {
      return yield* new PayloadTooLarge({ message: "The request body is larger than 1 MiB" })
    }
    const text = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
    if (Buffer.byteLength(text, "utf8") > maxBodyBytes) {
      return yield* new PayloadTooLarge({ message: "The request body is larger than 1 MiB" })
    }
    if (JsonDepth.exceeds(text)) return yield* new InvalidJson({ message: "The request body nests deeper than 64 levels" })
    const body = text.trim().length === 0 ? {} : yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: () => new InvalidJson({ message: "The request body is not valid JSON" })
    })
    // Own properties shadow the original's getters; everything else is the original request.
    const parsed: HttpServerRequest.HttpServerRequest = Object.create(request, {
      headers: { value: { ...request.headers, "content-type": "application/json" } },
      json: { value: Effect.succeed(body) },
      text: { value: Effect.succeed(text) }
    })
    return { request: parsed, text, body }
  })
