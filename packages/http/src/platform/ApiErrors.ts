import { HttpApiSchemaError } from "effect/http-api/HttpApiError"
import * as HttpEffect from "effect/http/HttpEffect"
import type * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { IdempotencyInProgress, InvalidApiKey, type InvalidParameters, MissingApiKey, ShuttingDown } from "@hotel/domain"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { unhandled } from "effect/Types"
import { ApiErrors, NotFoundAs, type NotFoundError } from "@hotel/api/common/Security"
import { fromSchemaError } from "./DecodeErrors.js"

type Answered = Effect.Effect<never, unhandled | InvalidParameters | InstanceType<NotFoundError>, HttpRouter.Provided>

const challenge = { "www-authenticate": "Bearer" }
const retrySoon = { "retry-after": "1" }

/**
 * Headers an error answer carries beside its envelope: the 401 challenge, the retry hint of a key in use and
 * of a stopping process (through the balancer, another instance answers the retry).
 */
const headersOf = (error: unknown): Record<string, string> | undefined =>
  error instanceof MissingApiKey || error instanceof InvalidApiKey
    ? challenge
    : error instanceof IdempotencyInProgress || error instanceof ShuttingDown
    ? retrySoon
    : undefined

const withHeaders = (headers: Record<string, string>) =>
  HttpEffect.appendPreResponseHandler((_request, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))

/**
 * `ApiErrors` around every endpoint: the framework's decode failures become the contract's errors (a path id
 * that names nothing the resource's 404, anything else 400 `invalid_parameters` naming the field, through
 * `DecodeErrors.ts`); a failure to encode the answer is the server's (500), and the errors that carry a header
 * get it. Every request passes here: one frame, and nothing but a failure does any work.
 */
export const ApiErrorsLive = Layer.succeed(ApiErrors, (httpEffect, { endpoint, group }) =>
  Effect.catch(httpEffect, (error): Answered => {
    if (HttpApiSchemaError.is(error)) {
      if (error.kind === "Body" || error.kind === "ResponseHeaders") return Effect.die(error)
      return Effect.flatMap(HttpServerRequest.ParsedSearchParams, (query) =>
        Effect.fail(fromSchemaError(error, {
          notFound: Context.getOption(Context.merge(group.annotations, endpoint.annotations), NotFoundAs),
          repeatedInQuery: (name) => Array.isArray(query[name])
        })))
    }
    const headers = headersOf(error)
    return headers === undefined ? Effect.fail(error) : Effect.andThen(withHeaders(headers), Effect.fail(error))
  }))
