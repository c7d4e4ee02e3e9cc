import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import * as TokenBucket from "@hotel/domain/platform/TokenBucket"
import * as TokenLease from "@hotel/domain/platform/TokenLease"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"

/** What one UPSERT on the shared bucket did: `cost` tokens taken or not, and the tokens left. */
export interface Taken {
  readonly tokens: number
  readonly allowed: boolean
}

export type SharedBucket = (
  bucket: string,
  config: TokenBucket.Config,
  cost: number,
  /** Tokens handed back first (a lease's unspent ones), like a refill: never above the capacity. */
  giveBack?: number
) => Effect.Effect<Taken, SqlError>

/** What `rate_limit_take` (migration 0014, the bucket arithmetic in SQL) answers. */
export interface TakeRow {
  readonly tokens_left: number
  readonly taken: boolean
}

export const takenOf = (row: TakeRow): Taken => ({ tokens: Number(row.tokens_left), allowed: row.taken })

/**
 * `cost` tokens from the shared bucket in one call of `rate_limit_take`, refilled first at the `Clock`'s now
 * (every process serialises on the row). A refused take takes nothing (what is handed back stays given back).
 * A statement that fails stays a `SqlError`: the limiter tells a primary that is gone from any other failure.
 */
export const sharedBucket = (sql: SqlClient.SqlClient): SharedBucket => (bucket, config, cost, giveBack = 0) =>
  Effect.gen(function*() {
    const now = new Date(yield* Clock.currentTimeMillis)
    const rows = yield* sql<TakeRow>`
      SELECT tokens_left, taken FROM rate_limit_take(
        ${bucket}, ${config.capacity}::float8, ${config.refillPerSecond}::float8, ${cost}::float8,
        ${giveBack}::float8, ${now})`
    const row = rows[0]
    return row === undefined
      ? yield* Effect.die(new Error(`rate limit bucket ${bucket}: rate_limit_take returned no row`))
      : takenOf(row)
  })

/**
 * This process's leases, by bucket. One renewal per bucket is in flight at a time (the others wait for it),
 * so concurrent requests never take more than one lease. When the shared bucket cannot grant a lease any
 * more, the bucket's requests go one by one to the shared bucket for a lease period, exactly as small
 * limits always do, so the last tokens of a budget are shared fairly and `Retry-After` is exact.
 */
export const makeLeases = (shared: SharedBucket) =>
  Effect.sync(() => {
    const leases = new Map<string, TokenLease.Lease>()
    const renewing = new Map<string, Deferred.Deferred<void>>()
    /** Bucket → epoch ms until which it is decided request by request (no lease could be granted). */
    const oneByOne = new Map<string, number>()

    const single = (bucket: string, config: TokenBucket.Config) =>
      Effect.map(shared(bucket, config, TokenBucket.requestCost), (taken) =>
        TokenBucket.decision(config, taken.tokens, taken.allowed))

    const renew = (bucket: string, config: TokenBucket.Config, size: number, now: number) =>
      Effect.gen(function*() {
        const taken = yield* shared(bucket, config, size, TokenLease.unspent(leases.get(bucket)))
        if (!taken.allowed) {
          leases.delete(bucket)
          oneByOne.set(bucket, now + TokenLease.leaseMillis)
          return yield* single(bucket, config)
        }
        const { lease, remaining } = TokenLease.renewed(size, taken.tokens, now)
        leases.set(bucket, lease)
        return TokenBucket.decision(config, remaining, true)
      })

    /** The request's token when the lease holds none: a renewal, or the shared bucket itself. */
    const beyondLease = (
      bucket: string,
      config: TokenBucket.Config,
      size: number,
      now: number
    ): Effect.Effect<TokenBucket.Decision, SqlError> =>
      Effect.gen(function*() {
        if ((oneByOne.get(bucket) ?? 0) > now) return yield* single(bucket, config)
        const inFlight = renewing.get(bucket)
        if (inFlight !== undefined) {
          yield* Deferred.await(inFlight)
          return yield* take(bucket, config, size)
        }
        const done = Deferred.makeUnsafe<void>()
        renewing.set(bucket, done)
        return yield* renew(bucket, config, size, now).pipe(
          Effect.ensuring(Effect.suspend(() => {
            renewing.delete(bucket)
            return Deferred.succeed(done, undefined)
          }))
        )
      })

    // Most requests of a leased key end in the first branch, so it takes one step of the run loop.
    const take = (
      bucket: string,
      config: TokenBucket.Config,
      size: number
    ): Effect.Effect<TokenBucket.Decision, SqlError> =>
      Effect.clockWith((clock) => {
        const now = clock.currentTimeMillisUnsafe()
        const spent = TokenLease.spend(leases.get(bucket), now)
        if (spent === undefined) return beyondLease(bucket, config, size, now)
        leases.set(bucket, spent.lease)
        return Effect.succeed(TokenBucket.decision(config, spent.remaining, true))
      })

    return take
  })
