import type { ApiKey } from "@hotel/domain"
import { InvalidApiKey, MissingApiKey } from "@hotel/domain"
import type * as TokenBucket from "@hotel/domain/platform/TokenBucket"
import { hashKey, isUsable } from "@hotel/persistence/platform/ApiKeyRepository"
import type { AdmittedKey } from "@hotel/persistence/platform/KeyAdmission"
import { RateLimiter } from "@hotel/persistence/platform/RateLimiter"
import * as Clock from "effect/Clock"
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
export class Authenticator extends Context.Tag("@hotel/http/platform/Authenticator")<Authenticator, {
  readonly authenticate: (header: string | undefined) => Effect.Effect<Admission, MissingApiKey | InvalidApiKey>
}>() {
  static readonly layer = Layer.effect(
    Authenticator,
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      const cache = yield* makeKeyCache
      const find = (hash: string, now: number): Effect.Effect<Option.Option<AdmittedKey>> => {
        const cached = cache.get(hash, now)
        if (cached !== undefined) return Effect.succeed(Option.some({ stored: cached, decision: Option.none() }))
        return Effect.tap(limiter.admit(hash), (found) => {
          if (Option.isSome(found)) cache.set(hash, found.value.stored, now)
          else cache.delete(hash)
        })
      }
      return {
        authenticate: (header) =>
          Effect.gen(function*() {
            if (header === undefined || header.trim().length === 0) {
              return yield* new MissingApiKey({ message: "Send an API key as `Authorization: Bearer <key>`" })
            }
            const match = BEARER.exec(header.trim())
            if (match === null || match[1] === undefined) {
              return yield* new InvalidApiKey({ message: "The Authorization header must be `Bearer <key>`" })
            }
            const now = yield* Clock.currentTimeMillis
            const found = yield* find(hashKey(match[1]), now)
            const usable = Option.filter(found, (admitted) => isUsable(admitted.stored, now))
            return yield* Option.match(usable, {
              onNone: () => Effect.fail(new InvalidApiKey({ message: "The API key is unknown, revoked or expired" })),
              onSome: (admitted) => Effect.succeed({ key: admitted.stored.key, decision: admitted.decision })
            })
          }).pipe(withSpan("Authenticator.authenticate"))
      }
    })
  )
}
