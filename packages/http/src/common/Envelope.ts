import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import { type ErrorMeta, getErrorMeta } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { RequestId } from "./Common.js"

/**
 * The request id of the request being served. A FiberRef rather than a service because the HttpApi
 * error encoder runs outside the handlers' context but on the request's fiber.
 */
export const currentRequestId: FiberRef.FiberRef<string> = globalValue(
  Symbol.for("@hotel/http/currentRequestId"),
  () => FiberRef.unsafeMake("req_unknown")
)

/** The wire body of every failure. */
export interface EnvelopeBody {
  readonly error: {
    readonly type: string
    readonly code: string
    readonly message: string
    readonly param?: string
    readonly estimated_end?: string
    readonly request_id: string
  }
}

interface ErrorEncoded {
  readonly _tag: string
  readonly message: string
  readonly param?: string | undefined
  readonly estimated_end?: string | undefined
}

/** The single place where an error becomes the envelope. */
export const toEnvelope = (meta: ErrorMeta, error: ErrorEncoded, requestId: string): EnvelopeBody => ({
  error: {
    type: meta.type,
    code: meta.code,
    message: error.message,
    ...(error.param !== undefined ? { param: error.param } : {}),
    ...(error.estimated_end !== undefined ? { estimated_end: error.estimated_end } : {}),
    request_id: requestId
  }
})

const envelopeSchema = (meta: ErrorMeta) =>
  Schema.Struct({
    error: Schema.Struct({
      type: Schema.Literal(meta.type),
      code: Schema.Literal(meta.code),
      message: Schema.String,
      param: Schema.optional(Schema.String),
      estimated_end: Schema.optional(Schema.String),
      request_id: RequestId
    })
  }).annotations({ identifier: `${meta.code}_error` })

export const metaOf = (schema: Schema.Schema.Any): ErrorMeta =>
  Option.getOrThrowWith(getErrorMeta(schema), () => new Error("error class without ErrorMeta annotation"))

/**
 * Gives a domain error class its wire shape and HTTP status. Handlers fail with the class; the encoder
 * writes the envelope; a client derived from the API decodes the envelope back into the class.
 */
export const wire = <A, I extends ErrorEncoded>(cls: Schema.Schema<A, I> & { readonly _tag: string }) => {
  const meta = metaOf(cls)
  return Schema.transformOrFail(envelopeSchema(meta), cls, {
    strict: false,
    decode: ({ error }) =>
      ParseResult.succeed({
        _tag: cls._tag,
        message: error.message,
        ...(error.param !== undefined ? { param: error.param } : {}),
        ...(error.estimated_end !== undefined ? { estimated_end: error.estimated_end } : {})
      }),
    encode: (encoded) => Effect.map(FiberRef.get(currentRequestId), (requestId) => toEnvelope(meta, encoded, requestId))
  }).annotations(HttpApiSchema.annotations({ status: meta.status }))
}
