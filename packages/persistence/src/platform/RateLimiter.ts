import * as SqlClient from "@effect/sql/SqlClient"
import * as TokenBucket from "@hotel/domain/platform/TokenBucket"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * Token buckets by name (`key:<api key id>`, `auth:<address>`). `take` spends one request's token at the
 * `Clock`'s now and says whether there was one. `postgres` is shared by every process on the database;
 * `memory` is one process's, for tests.
 */
export class RateLimiter extends Context.Tag("@hotel/persistence/RateLimiter")<RateLimiter, {
  readonly take: (bucket: string, config: TokenBucket.Config) => Effect.Effect<TokenBucket.Decision>
}>() {
  /**
   * One atomic UPSERT per request: the refill is computed in SQL from the stored tokens and the `now`
   * parameter (read from `Clock`, never SQL `now()`), so concurrent requests in any process serialise on
   * the bucket's row and each sees the previous one's result. The arithmetic is `TokenBucket.take`'s.
   */
  static readonly postgres: Layer.Layer<RateLimiter, never, SqlClient.SqlClient> = Layer.effect(
    RateLimiter,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return RateLimiter.of({
        take: (bucket, config) =>
          Effect.gen(function*() {
            const now = new Date(yield* Clock.currentTimeMillis)
            const cost = TokenBucket.requestCost
            // Every SET expression reads the row as it was, so `refilled` is the same value in all three.
            const refilled = sql`LEAST(
              ${config.capacity}::float8,
              b.tokens + GREATEST(0, EXTRACT(EPOCH FROM (EXCLUDED.updated_at - b.updated_at)))::float8
                * ${config.refillPerSecond}::float8
            )`
            const rows = yield* sql<{ readonly tokens: number; readonly allowed: boolean }>`
              INSERT INTO rate_limit_buckets AS b (bucket, tokens, updated_at, allowed)
              VALUES (${bucket}, ${config.capacity - cost}::float8, ${now}, true)
              ON CONFLICT (bucket) DO UPDATE SET
                tokens = CASE WHEN ${refilled} + 1e-9 >= ${cost}::float8
                              THEN GREATEST(0, ${refilled} - ${cost}::float8)
                              ELSE ${refilled} END,
                allowed = ${refilled} + 1e-9 >= ${cost}::float8,
                updated_at = GREATEST(b.updated_at, EXCLUDED.updated_at)
              RETURNING tokens, allowed`.pipe(Effect.orDie)
            const row = rows[0]
            return row === undefined
              ? yield* Effect.dieMessage(`rate limit bucket ${bucket}: the UPSERT returned no row`)
              : TokenBucket.decision(config, Number(row.tokens), row.allowed, cost)
          }).pipe(Effect.withSpan("RateLimiter.take", { attributes: { bucket } }))
      })
    })
  )

  /** The same buckets in this process's memory (tests, or a single process without a database). */
  static readonly memory: Layer.Layer<RateLimiter> = Layer.sync(
    RateLimiter,
    () => {
      // One fiber at a time runs the synchronous read-modify-write, so it is atomic without a lock.
      const buckets = new Map<string, TokenBucket.State>()
      return RateLimiter.of({
        take: (bucket, config) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Effect.sync(() => {
              const { decision, state } = TokenBucket.take(config, buckets.get(bucket), now)
              buckets.set(bucket, state)
              return decision
            }))
      })
    }
  )
}
