import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { ApiKey } from "@hotel/domain"
import { IdempotencyInProgress, IdempotencyKeyReuse, InvalidParameters } from "@hotel/domain"
import { IdempotencyKeys, type KeyTransaction, type StoredResponse } from "@hotel/persistence/platform/IdempotencyKeys"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { canonicalJson } from "@hotel/persistence/events/EntityTag"
import { createHash } from "node:crypto"

export const idempotencyHeader = "Idempotency-Key"
export const replayedHeader = "Idempotent-Replayed"

/** 1 to 255 printable ASCII characters. */
const validKey = /^[\x20-\x7E]{1,255}$/

/** The header's value, or 400 `invalid_parameters` naming the header. */
export const validateKey = (value: string): Effect.Effect<string, InvalidParameters> =>
  validKey.test(value)
    ? Effect.succeed(value)
    : Effect.fail(
      new InvalidParameters({
        message: `${idempotencyHeader} must be 1 to 255 printable ASCII characters`,
        param: idempotencyHeader
      })
    )

/**
 * What makes two requests "the same request" for a key: method, path with query, and body, in canonical JSON
 * (keys sorted), so that the same body sent with its keys in another order is the same request.
 */
export const fingerprint = (method: string, pathAndQuery: string, body: unknown): string =>
  createHash("sha256").update(canonicalJson([method.toUpperCase(), pathAndQuery, body]), "utf8").digest("hex")

const decoder = new TextDecoder()

/** The status, body and content type of a successful response, when its body is something to keep. */
const storable = (response: HttpServerResponse.HttpServerResponse): Option.Option<StoredResponse> => {
  const body = response.body
  switch (body._tag) {
    case "Empty":
      return Option.some({ status: response.status, body: "", contentType: null })
    case "Uint8Array":
      return Option.some({
        status: response.status,
        body: body.text ?? decoder.decode(body.body),
        contentType: body.contentType
      })
    case "Raw":
      return typeof body.body === "string"
        ? Option.some({ status: response.status, body: body.body, contentType: body.contentType ?? null })
        : Option.none()
    default:
      return Option.none()
  }
}

const replay = (stored: StoredResponse): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.setHeader(
    stored.contentType === null && stored.body.length === 0
      ? HttpServerResponse.empty({ status: stored.status })
      : HttpServerResponse.text(stored.body, {
        status: stored.status,
        ...(stored.contentType !== null ? { contentType: stored.contentType } : {})
      }),
    replayedHeader.toLowerCase(),
    "true"
  )

export interface IdempotentRequest {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly key: ApiKey
  /** The parsed body (`{}` when empty). */
  readonly body: unknown
}

const pathAndQuery = (url: string): string => {
  const parsed = new URL(url, "http://localhost")
  return parsed.pathname + parsed.search
}

/**
 * A success (status below 400) stores its response and commits with the change; any failure rolls back,
 * which frees the key, so a retry runs afresh. A commit that fails fails the request.
 */
const settle = (open: KeyTransaction) => <E>(exit: Exit.Exit<HttpServerResponse.HttpServerResponse, E>) =>
  Exit.isFailure(exit) || exit.value.status >= 400 ? open.rollback : Effect.orDie(open.commit(storable(exit.value)))

/**
 * The `Idempotency-Key` step of a mutation, after the body checks (`RequestBody`). Without the header the
 * request runs as it is; with it the key is validated and the request's transaction opened, holding the key for
 * the API key, and the rest of the request runs in it (the services' own transactions nest in it), then
 * settles it. The same request after success is answered with the stored status and body and
 * `Idempotent-Replayed: true`, and nothing runs; another request with the key is 409
 * `idempotency_key_reuse`; the same key while its transaction runs (in any process) is 409
 * `idempotency_in_progress`.
 */
export const makeIdempotency = Effect.map(IdempotencyKeys, (store) =>
  <E, R>(
    input: IdempotentRequest,
    handled: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    E | InvalidParameters | IdempotencyKeyReuse | IdempotencyInProgress,
    R
  > => {
    const header = input.request.headers[idempotencyHeader.toLowerCase()]
    if (header === undefined) return handled
    return Effect.gen(function*() {
      const key = yield* validateKey(header)
      const outcome = yield* store.begin({
        apiKeyId: input.key.id,
        key,
        fingerprint: fingerprint(input.request.method, pathAndQuery(input.request.url), input.body)
      }).pipe(Effect.orDie)
      switch (outcome._tag) {
        case "Replay":
          return replay(outcome.response)
        case "Mismatch":
          return yield* new IdempotencyKeyReuse({
            message: `This ${idempotencyHeader} was already used with a different request; use a fresh key per operation`
          })
        case "InProgress":
          return yield* new IdempotencyInProgress({
            message: `A request with this ${idempotencyHeader} is still running; retry shortly`
          })
        case "Open": {
          const open = outcome.transaction
          return yield* open.within(handled).pipe(Effect.exit, Effect.tap(settle(open)), Effect.flatten)
        }
      }
    })
  })
