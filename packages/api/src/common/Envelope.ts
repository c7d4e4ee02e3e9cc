import { type ErrorMeta, type ErrorType, getErrorMeta } from "@hotel/domain"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { RequestId } from "./Common.js"

/**
 * The request id of the request being served, provided by the request context around the whole app
 * (`platform/RequestContext.ts`); the error encoder reads it to write the envelope.
 */
export const CurrentRequestId = Context.Reference<string>("@hotel/http/common/CurrentRequestId", {
  defaultValue: () => "req_unknown"
})

/** The wire body of every failure. */
export interface EnvelopeBody {
  readonly error: {
    readonly type: ErrorType
    readonly code: string
    readonly message: string
    readonly param?: string
    readonly estimated_end?: string
    readonly request_id: string
  }
}

/** An error class's own encoded form, which the envelope carries. */
export interface ErrorEncoded {
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

const errorTypeDescription =
  "The error's category (`invalid_request`, `authentication`, `permission`, `not_found`, `conflict`, `rate_limit`, `server`)"

// The envelope's fields say what they mean here: the description's glossary gives `type` and `error` the
// meanings they have elsewhere (an event's type, a delivery attempt's failure).
const envelopeSchema = (meta: ErrorMeta) =>
  Schema.Struct({
    error: Schema.Struct({
      type: Schema.Literal(meta.type).annotate({ description: errorTypeDescription }),
      code: Schema.Literal(meta.code).annotate({ description: "What went wrong, one code per cause; branch on this" }),
      message: Schema.String.annotate({ description: "What went wrong, for a person" }),
      param: Schema.optionalKey(Schema.String.annotate({ description: "The request field, query parameter or header at fault" })),
      estimated_end: Schema.optionalKey(Schema.String.annotate({ description: "When the maintenance window should end (UTC)" })),
      request_id: RequestId.annotate({ description: "The request's id (`req_...`), as in `X-Request-Id`" })
    }).annotate({ description: "The failure; a request that succeeds has no `error`" })
  }).annotate({ identifier: `${meta.code}_error` })

export const metaOf = (schema: Schema.Top): ErrorMeta =>
  Option.getOrThrowWith(getErrorMeta(schema), () => new Error("error class without ErrorMeta annotation"))

/**
 * Gives a domain error class its wire shape and HTTP status. Handlers fail with the class; the encoder
 * writes the envelope; a client derived from the API decodes the envelope back into the class.
 */
export const wire = <A>(cls: Schema.Codec<A, ErrorEncoded> & { readonly identifier: string }) => {
  const meta = metaOf(cls)
  return envelopeSchema(meta).pipe(
    Schema.decodeTo(
      cls,
      SchemaTransformation.transformEffect<ErrorEncoded, EnvelopeBody>({
        decode: ({ error }) =>
          Effect.succeed({
            // A domain error class is identified by its tag.
            _tag: cls.identifier,
            message: error.message,
            ...(error.param !== undefined ? { param: error.param } : {}),
            ...(error.estimated_end !== undefined ? { estimated_end: error.estimated_end } : {})
          }),
        encode: (encoded) =>
          Effect.map(Effect.service(CurrentRequestId), (requestId) => toEnvelope(meta, encoded, requestId))
      })
    ),
    Schema.annotate({ httpApiStatus: meta.status })
  )
}
