import * as SqlClient from "effect/sql/SqlClient"
import * as TokenBucket from "@hotel/domain/platform/TokenBucket"
import * as TokenLease from "@hotel/domain/platform/TokenLease"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { orOnStandby } from "../database/StandbyReads.js"
import { ApiKeyRepository, findKeyByHash } from "./ApiKeyRepository.js"
import { type AdmittedKey, admitByHash } from "./KeyAdmission.js"
import { makeOutageLeases, settleBucket } from "./OutageLeases.js"
import { makeLeases, sharedBucket } from "./RateLimitLeases.js"
import { withSpan } from "../database/Span.js"

/**
 * Token buckets by name (`key:<api key id>`, `auth:<address>`). `take` spends one request's token at the
 * `Clock`'s now and says whether there was one. `postgres` is shared by every process on the database;
 * `memory` is one process's, for tests.
 */
export class RateLimiter extends Context.Service<RateLimiter, {
  readonly take: (bucket: string, config: TokenBucket.Config) => Effect.Effect<TokenBucket.Decision>
  /**
   * The API key with this hash (see `ApiKeyRepository.findByHash`), and the decision on its request's token
   * when the limiter took it in the same round trip (see `AdmittedKey`).
   */
  readonly admit: (hash: string) => Effect.Effect<Option.Option<AdmittedKey>>
}>()("@hotel/persistence/platform/RateLimiter") {
  /**
   * One atomic UPSERT per request: the refill is computed in SQL from the stored tokens and the `now`
   * parameter (read from `Clock`, never SQL `now()`), so concurrent requests in any process serialise on
   * the bucket's row and each sees the previous one's result. The arithmetic is `TokenBucket.take`'s.
   *
   * A key whose limit is large enough (`TokenLease.leaseSize`, 0.2% of the capacity, at least 10 tokens)
   * is served from a lease instead: one UPSERT takes a block of tokens that this process spends from
   * memory for up to a second. The limit is then kept within one lease per process (see docs/platform.md);
   * the default 600 a minute is too small to lease and stays exact.
   *
   * `admit` looks a key up and takes its request's token in one statement (`KeyAdmission.admitByHash`).
   *
   * While no primary answers (the failover window), a key is looked up on the standby instead
   * (`orOnStandby`), and a bucket's requests are let through from this process's outage lease, a tenth of its
   * capacity, debited from the shared bucket once a primary answers (`OutageLeases.ts`).
   */
  static readonly postgres: Layer.Layer<RateLimiter, never, SqlClient.SqlClient> = Layer.effect(
    RateLimiter,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const shared = sharedBucket(sql)
      const leased = yield* makeLeases(shared)
      const outages = yield* makeOutageLeases(settleBucket(sql), yield* Effect.scope)
      const findOnStandby = findKeyByHash(sql)
      return RateLimiter.of({
        admit: (hash) =>
          admitByHash(sql)(hash).pipe(
            orOnStandby(Effect.map(findOnStandby(hash), Option.map((stored) => ({ stored, decision: Option.none() })))),
            Effect.orDie,
            withSpan("RateLimiter.admit")
          ),
        take: (bucket, config) => {
          const size = TokenLease.leaseSize(config)
          const usual = size === 0
            ? Effect.map(shared(bucket, config, TokenBucket.requestCost), (taken) =>
              TokenBucket.decision(config, taken.tokens, taken.allowed))
            : leased(bucket, config, size)
          return outages.take(bucket, config, usual).pipe(
            Effect.orDie,
            withSpan("RateLimiter.take", { attributes: { bucket } })
          )
        }
      })
    })
  )

  /**
   * The same buckets in this process's memory (tests). Keys are still read from the database, and `admit`
   * takes no token: the caller's `take` then does.
   */
  static readonly memory: Layer.Layer<RateLimiter, never, ApiKeyRepository> = Layer.effect(
    RateLimiter,
    Effect.gen(function*() {
      const keys = yield* ApiKeyRepository
      // One fiber at a time runs the synchronous read-modify-write, so it is atomic without a lock.
      const buckets = new Map<string, TokenBucket.State>()
      return RateLimiter.of({
        admit: (hash) =>
          Effect.map(keys.findByHash(hash), Option.map((stored) => ({ stored, decision: Option.none() }))),
        take: (bucket, config) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Effect.sync(() => {
              const { decision, state } = TokenBucket.take(config, buckets.get(bucket), now)
              buckets.set(bucket, state)
              return decision
            }))
      })
    })
  )
}
