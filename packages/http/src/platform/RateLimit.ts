import * as HttpApp from "@effect/platform/HttpApp"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import type { ApiKey, InvalidApiKey, MissingApiKey } from "@hotel/domain"
import { RateLimited } from "@hotel/domain"
import * as TokenBucket from "@hotel/domain/platform/TokenBucket"
import { RateLimiter } from "@hotel/persistence/platform/RateLimiter"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Http from "node:http"
import { Authenticator } from "./Authenticator.js"

const setHeaders = (headers: Record<string, string>) =>
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  )

/** The peer's address (no proxy header is trusted: behind a proxy, configure it to limit per client). */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => {
    const message: Http.IncomingMessage | undefined = NodeHttpServerRequest.toIncomingMessage(request)
    return message?.socket?.remoteAddress ?? "unknown"
  })

const refused = (retryAfterSeconds: number, message: string) =>
  Effect.zipRight(
    setHeaders({ "retry-after": String(retryAfterSeconds) }),
    Effect.fail(new RateLimited({ message: `${message}; retry after ${retryAfterSeconds} s` }))
  )

const tooManyFailures = "Too many failed authentications from this address"

/**
 * Authentication with the per-address limit on failures, and the per-key token bucket (interface 8,
 * decisions 6).
 *
 * Failed authentication: every `invalid_api_key` takes a token from the address's bucket
 * (`TokenBucket.failedAuthPerAddress`: 30, refilled at one every 2 s). When it is empty the answer is 429
 * instead of 401, and this process refuses every request from that address carrying a key — without
 * looking the key up — until a token is back, so a correct guess is refused too. A missing key is not a
 * guess and is not counted.
 */
export const makeRateLimits = Effect.gen(function*() {
  const limiter = yield* RateLimiter
  const authenticator = yield* Authenticator
  /** Address → epoch ms until which its requests are refused without checking the key. */
  const lockouts = new Map<string, number>()

  const lockedFor = (address: string, now: number): number => {
    const until = lockouts.get(address)
    if (until === undefined) return 0
    if (until <= now) {
      lockouts.delete(address)
      return 0
    }
    return until - now
  }

  const lockOut = (address: string, until: number, now: number) => {
    if (lockouts.size >= 10_000) {
      for (const [entry, end] of lockouts) if (end <= now) lockouts.delete(entry)
    }
    lockouts.set(address, until)
  }

  const authenticate = (
    request: HttpServerRequest.HttpServerRequest
  ): Effect.Effect<ApiKey, MissingApiKey | InvalidApiKey | RateLimited> =>
    Effect.gen(function*() {
      const header = request.headers["authorization"]
      const address = clientAddress(request)
      const presented = header !== undefined && header.trim().length > 0
      const now = yield* Clock.currentTimeMillis
      const locked = presented ? lockedFor(address, now) : 0
      if (locked > 0) {
        return yield* refused(Math.max(1, Math.ceil(locked / 1000)), tooManyFailures)
      }
      return yield* authenticator.authenticate(header).pipe(
        Effect.catchTag("InvalidApiKey", (error) =>
          Effect.gen(function*() {
            const decision = yield* limiter.take(`auth:${address}`, TokenBucket.failedAuthPerAddress)
            if (decision.allowed) return yield* Effect.fail(error)
            const at = yield* Clock.currentTimeMillis
            lockOut(address, at + decision.retryAfterMillis, at)
            return yield* refused(decision.retryAfterSeconds, tooManyFailures)
          }))
      )
    })

  /** One token of the key's bucket; the limit and what is left go on every response, errors included. */
  const limitKey = (key: ApiKey): Effect.Effect<void, RateLimited> =>
    Effect.gen(function*() {
      const decision = yield* limiter.take(`key:${key.id}`, TokenBucket.forApiKey(key.rateLimit))
      yield* setHeaders({
        "x-ratelimit-limit": String(decision.limit),
        "x-ratelimit-remaining": String(decision.remaining)
      })
      if (!decision.allowed) return yield* refused(decision.retryAfterSeconds, "Rate limit reached for this API key")
    })

  return { authenticate, limitKey } as const
})
