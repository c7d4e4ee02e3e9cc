import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { ApiKey } from "@hotel/domain"
import { IdempotencyInProgress, IdempotencyKeyReuse, InvalidParameters } from "@hotel/domain"
import { IdempotentTransaction, RequestTransaction } from "../common/Security.js"
import * as SqlClient from "effect/sql/SqlClient"
import { IdempotencyKeys, type KeyTransaction, type StoredResponse } from "@hotel/persistence/platform/IdempotencyKeys"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as Layer from "effect/Layer"
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
      return Option.some({ status: response.status, body: decoder.decode(body.body), contentType: body.contentType })
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

/** The transaction of the request being served, opened by `claim`, ended by `settled`. */
const openTransaction: FiberRef.FiberRef<Option.Option<KeyTransaction>> = globalValue(
  Symbol.for("@hotel/http/openTransaction"),
  () => FiberRef.unsafeMake(Option.none<KeyTransaction>())
)

/**
 * The stored response of a replayed request. A middleware can only fail or let the handler run, so the
 * claim step hands it to `settled` (around the router) as a defect, which answers with it.
 */
class Replayed {
  constructor(readonly response: StoredResponse) {}
}

const pathAndQuery = (url: string): string => {
  const parsed = new URL(url, "http://localhost")
  return parsed.pathname + parsed.search
}

/**
 * The `Idempotency-Key` step of a mutation, in three parts. `claim` runs after
 * the body checks: without the header nothing happens; with it the key is validated and the request's
 * transaction opened, holding the key for the API key. The same request after success is answered with the
 * stored status and body and `Idempotent-Replayed: true`, and nothing runs; another request with the key
 * is 409 `idempotency_key_reuse`; the same key while its transaction runs (in any process) is 409
 * `idempotency_in_progress`. `transaction` hands that transaction's connection to the handler (the
 * `IdempotentTransaction` middleware), so the services' own transactions nest in it. `settled` wraps the
 * routed request: a success (status below 400) stores its response and commits with the change; any
 * failure rolls back, which frees the key, so a retry runs afresh. A commit that fails fails the request.
 */
export const makeIdempotency = Effect.gen(function*() {
  const store = yield* IdempotencyKeys
  if (RequestTransaction.key !== SqlClient.TransactionConnection.key) {
    return yield* Effect.dieMessage("RequestTransaction must be @effect/sql's TransactionConnection")
  }

  const claim = (input: IdempotentRequest): Effect.Effect<
    void,
    InvalidParameters | IdempotencyKeyReuse | IdempotencyInProgress
  > => {
    const header = input.request.headers[idempotencyHeader.toLowerCase()]
    if (header === undefined) return Effect.void
    return Effect.gen(function*() {
      const key = yield* validateKey(header)
      const outcome = yield* store.begin({
        apiKeyId: input.key.id,
        key,
        fingerprint: fingerprint(input.request.method, pathAndQuery(input.request.url), input.body)
      }).pipe(Effect.orDie)
      switch (outcome._tag) {
        case "Replay":
          return yield* Effect.die(new Replayed(outcome.response))
        case "Mismatch":
          return yield* new IdempotencyKeyReuse({
            message: `This ${idempotencyHeader} was already used with a different request; use a fresh key per operation`
          })
        case "InProgress":
          return yield* new IdempotencyInProgress({
            message: `A request with this ${idempotencyHeader} is still running; retry shortly`
          })
        case "Open":
          return yield* FiberRef.set(openTransaction, Option.some(outcome.transaction))
      }
    })
  }

  /** The open transaction's connection; fails (the middleware then does nothing) when there is none. */
  const transaction: Effect.Effect<readonly [unknown, number], string> = Effect.flatMap(
    FiberRef.get(openTransaction),
    Option.match({
      onNone: () => Effect.fail("no Idempotency-Key"),
      onSome: (open) => Effect.succeed(open.connection)
    })
  )

  const settle = <E>(exit: Exit.Exit<HttpServerResponse.HttpServerResponse, E>) =>
    Effect.flatMap(FiberRef.get(openTransaction), Option.match({
      onNone: () => Effect.void,
      onSome: (open) => {
        if (Exit.isFailure(exit) || exit.value.status >= 400) return open.rollback
        return Effect.orDie(open.commit(storable(exit.value)))
      }
    }))

  /** Without the header `claim` opens nothing, so there is nothing to settle (most requests: every read). */
  const settled = <E, R>(
    request: HttpServerRequest.HttpServerRequest,
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) =>
    request.headers[idempotencyHeader.toLowerCase()] === undefined ? app : Effect.exit(app).pipe(
      Effect.tap(settle),
      Effect.flatten,
      Effect.catchAllDefect((defect) => defect instanceof Replayed ? Effect.succeed(replay(defect.response)) : Effect.die(defect)),
      Effect.locally(openTransaction, Option.none())
    )

  return { claim, transaction, settled } as const
})

/** The `IdempotentTransaction` middleware: the handler runs in the transaction `claim` opened. */
export const IdempotentTransactionLive = Layer.effect(
  IdempotentTransaction,
  Effect.map(makeIdempotency, (idempotency) => IdempotentTransaction.of(idempotency.transaction))
)
