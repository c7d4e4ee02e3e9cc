import type { ApiKey } from "@hotel/domain"
import { InvalidApiKey, MissingApiKey } from "@hotel/domain"
import { ApiKeyRepository, hashKey } from "@hotel/persistence/platform/ApiKeyRepository"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { makeKeyCache } from "./KeyCache.js"
import { withSpan } from "@hotel/persistence/database/Span"

/** `Bearer <key>`; the scheme is case-insensitive (RFC 9110 §11.1), as is the space before the key. */
const BEARER = /^bearer +(\S+)$/i

/** Turns an `Authorization` header into a valid key or the contract's 401 (keys cached, see `KeyCache`). */
export class Authenticator extends Context.Tag("@hotel/http/platform/Authenticator")<Authenticator, {
  readonly authenticate: (header: string | undefined) => Effect.Effect<ApiKey, MissingApiKey | InvalidApiKey>
}>() {
  static readonly layer = Layer.effect(
    Authenticator,
    Effect.gen(function*() {
      const keys = yield* ApiKeyRepository
      const findByHash = yield* makeKeyCache(keys.findByHash)
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
            const found = yield* findByHash(hashKey(match[1]))
            const now = yield* Clock.currentTimeMillis
            const usable = Option.filter(found, (entry) =>
              entry.revokedAt === null && (entry.key.expiresAt === null || entry.key.expiresAt.getTime() > now))
            return yield* Option.match(usable, {
              onNone: () => Effect.fail(new InvalidApiKey({ message: "The API key is unknown, revoked or expired" })),
              onSome: (entry) => Effect.succeed(entry.key)
            })
          }).pipe(withSpan("Authenticator.authenticate"))
      }
    })
  )
}
