import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import * as TokenBucket from "@hotel/domain/platform/TokenBucket"
import * as TokenLease from "@hotel/domain/platform/TokenLease"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type ApiKeyRow, type StoredApiKey, storedKeyOf } from "./ApiKeyRepository.js"
import type { TakeRow } from "./RateLimitLeases.js"

/** A key found by its hash, with the decision on its request's token when the lookup took that too. */
export interface AdmittedKey {
  readonly stored: StoredApiKey
  /**
   * Some when the lookup's own statement took the request's token from the key's bucket: a usable key whose
   * limit is decided request by request. None otherwise (revoked or expired, a leased limit, a limiter that
   * does not fuse the two): the caller then takes the token as usual, or refuses the key.
   */
  readonly decision: Option.Option<TokenBucket.Decision>
}

/**
 * The key with this hash and, in the same statement, its request's token (`rate_limit_take`), so that a key
 * no process has in its cache costs one round trip instead of two. The token is asked for only when the key
 * is usable at the `Clock`'s now and its limit is not leased; the bucket's configuration is
 * `TokenBucket.forApiKey` and the lease rule `TokenLease.leaseSize`, written out in SQL with their own
 * constants, so both sides compute in the same double precision. A failed statement stays a `SqlError`: while
 * no primary answers, the limiter looks the key up on the standby instead (`RateLimiter.postgres`).
 */
export const admitByHash = (sql: SqlClient.SqlClient) => (hash: string): Effect.Effect<Option.Option<AdmittedKey>, SqlError> =>
  Effect.gen(function*() {
    const now = new Date(yield* Clock.currentTimeMillis)
    const standard = TokenBucket.perApiKey
    const rows = yield* sql<ApiKeyRow & { readonly [K in keyof TakeRow]: TakeRow[K] | null }>`
      SELECT k.id, k.property_id, k.scopes, k.context, k.label, k.expires_at, k.revoked_at, k.rate_limit,
             t.tokens_left, t.taken
      FROM api_keys k
      LEFT JOIN LATERAL rate_limit_take(
        ${TokenBucket.keyBucketPrefix} || k.id,
        COALESCE(k.rate_limit::float8, ${standard.capacity}::float8),
        COALESCE(k.rate_limit::float8 / 60, ${standard.refillPerSecond}::float8),
        CASE WHEN k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ${now})
              AND floor(COALESCE(k.rate_limit::float8, ${standard.capacity}::float8) * ${TokenLease.leaseShare}::float8)
                < ${TokenLease.minimumLeaseSize}
             THEN ${TokenBucket.requestCost}::float8 END,
        0::float8,
        ${now}
      ) AS t ON true
      WHERE k.key_hash = ${hash}`
    const row = rows[0]
    if (row === undefined) return Option.none()
    const stored = yield* storedKeyOf(row)
    const decision = row.tokens_left === null || row.taken === null
      ? Option.none()
      : Option.some(TokenBucket.decision(TokenBucket.forApiKey(row.rate_limit), Number(row.tokens_left), row.taken))
    return Option.some({ stored, decision })
  })
