import * as HttpEffect from "effect/http/HttpEffect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { InvalidApiKey, MissingApiKey } from "@hotel/domain"
import { RateLimited } from "@hotel/domain"
import * as TokenBucket from "@hotel/domain/platform/TokenBucket"
import { RateLimiter } from "@hotel/persistence/platform/RateLimiter"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type Admission, Authenticator } from "./Authenticator.js"
import { ClientAddress } from "./ClientAddress.js"

const setHeaders = (headers: Record<string, string>) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  )

const refused = (retryAfterSeconds: number, message: string) =>
  Effect.andThen(
    setHeaders({ "retry-after": String(retryAfterSeconds) }),
    Effect.fail(new RateLimited({ message: `${message}; retry after ${retryAfterSeconds} s` }))
  )

const tooManyFailures = "Too many failed authentications from this address"

/**
 * Authentication with the per-address limit on failures, and the per-key token bucket.
 *
 * Failed authentication: every `invalid_api_key` takes a token from its client address's bucket
 * (`TokenBucket.failedAuthPerAddress`: 30, refilled at one every 2 s); when it is empty that failure is
 * answered 429 instead of 401. Only failures are limited: a valid key is always looked up and never
 * refused because of other requests' failures from the same address (a proxy, a NAT, an office). A
 * missing key is not a guess and is not counted. The address is the client's, through trusted proxies
 * (`ClientAddress`).
 */
export const makeRateLimits = Effect.gen(function*() {
  const limiter = yield* RateLimiter
  const authenticator = yield* Authenticator
  const clients = yield* ClientAddress

  const authenticate = (
    request: HttpServerRequest.HttpServerRequest
  ): Effect.Effect<Admission, MissingApiKey | InvalidApiKey | RateLimited, HttpServerRequest.HttpServerRequest> =>
    authenticator.authenticate(request.headers["authorization"]).pipe(
      Effect.catchTag("InvalidApiKey", (error) =>
        Effect.gen(function*() {
          const decision = yield* limiter.take(`auth:${clients.of(request)}`, TokenBucket.failedAuthPerAddress)
          if (decision.allowed) return yield* Effect.fail(error)
          return yield* refused(decision.retryAfterSeconds, tooManyFailures)
        }))
    )

  /**
   * One token of the key's bucket (already taken when the key was looked up, see `Authenticator`); the limit
   * and what is left go on every response, errors included.
   */
  const limited = (decision: TokenBucket.Decision): Effect.Effect<void, RateLimited, HttpServerRequest.HttpServerRequest> =>
    Effect.andThen(
      setHeaders({
        "x-ratelimit-limit": String(decision.limit),
        "x-ratelimit-remaining": String(decision.remaining)
      }),
      decision.allowed ? Effect.void : refused(decision.retryAfterSeconds, "Rate limit reached for this API key")
    )

  const limitKey = ({ decision: taken, key }: Admission): Effect.Effect<void, RateLimited, HttpServerRequest.HttpServerRequest> =>
    Option.isSome(taken)
      ? limited(taken.value)
      : Effect.flatMap(limiter.take(TokenBucket.keyBucket(key.id), TokenBucket.forApiKey(key.rateLimit)), limited)

  return { authenticate, limitKey } as const
})
