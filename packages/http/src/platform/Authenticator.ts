import type { ApiKey } from "@hotel/domain"
import { InvalidApiKey, MissingApiKey } from "@hotel/domain"
import type * as TokenBucket from "@hotel/domain/platform/TokenBucket"
import { hashKey, isUsable, type StoredApiKey } from "@hotel/persistence/platform/ApiKeyRepository"
import { RateLimiter } from "@hotel/persistence/platform/RateLimiter"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { makeKeyCache } from "./KeyCache.js"
import { withSpan } from "@hotel/persistence/database/Span"

/** `Bearer <key>`; the scheme is case-insensitive (RFC 9110 §11.1), as is the space before the key. */
const BEARER = /^bearer +(\S+)$/i

/** A valid key, with the decision on its request's token when looking it up took that token already. */
export interface Admission {
  readonly key: ApiKey
  readonly decision: Option.Option<TokenBucket.Decision>
}

/**
 * Turns an `Authorization` header into a valid key or the contract's 401. A key is cached (see `KeyCache`);
 * one that is not is looked up by the `RateLimiter`, which takes its request's token in the same round trip.
 */
export class Authenticator extends Context.Service<Authenticator, {
  readonly authenticate: (header: string | undefined) => Effect.Effect<Admission, MissingApiKey | InvalidApiKey>
}>()("@hotel/http/platform/Authenticator") {
  static readonly layer = Layer.effect(
    Authenticator,
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      const cache = yield* makeKeyCache
      const unusable = () => Effect.fail(new InvalidApiKey({ message: "The API key is unknown, revoked or expired" }))
      const admitted = (stored: StoredApiKey, decision: Option.Option<TokenBucket.Decision>, now: number) =>
        isUsable(stored, now) ? Effect.succeed<Admission>({ key: stored.key, decision }) : unusable()
      // Every request passes here: a cached key is answered without a generator or a second clock read.
      const admit = (hash: string) =>
        Effect.clockWith((clock): Effect.Effect<Admission, InvalidApiKey> => {
          const now = clock.currentTimeMillisUnsafe()
          const cached = cache.get(hash, now)
          if (cached !== undefined) return admitted(cached, Option.none(), now)
          return Effect.flatMap(limiter.admit(hash), (found) => {
            if (Option.isNone(found)) {
              cache.delete(hash)
              return unusable()
            }
            cache.set(hash, found.value.stored, now)
            return admitted(found.value.stored, found.value.decision, now)
          })
        })
      return {
        authenticate: (header) => {
          const presented = header?.trim() ?? ""
          if (presented.length === 0) {
            return Effect.fail(new MissingApiKey({ message: "Send an API key as `Authorization: Bearer <key>`" }))
          }
          const match = BEARER.exec(presented)
          if (match === null || match[1] === undefined) {
            return Effect.fail(new InvalidApiKey({ message: "The Authorization header must be `Bearer <key>`" }))
          }
          return admit(hashKey(match[1])).pipe(withSpan("Authenticator.authenticate"))
        }
      }
    })
  )
}
