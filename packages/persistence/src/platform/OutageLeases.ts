import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import * as OutageLease from "@hotel/domain/platform/OutageLease"
import * as TokenBucket from "@hotel/domain/platform/TokenBucket"
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { isPrimaryUnavailable } from "../database/DatabaseBusy.js"

// While no primary answers (the failover window) the shared buckets cannot be read, and a limiter that waits
// for them answers every request 503, the reads a standby serves included. So this process lets a bucket's
// requests through from an outage lease of its own (`domain/platform/OutageLease.ts`: a tenth of the bucket's
// capacity per process and per outage, no refill), owed to the shared bucket; once a primary answers, the owed
// tokens are debited from it (`rate_limit_settle`, migration 0016): by the bucket's next request before its
// token is taken, and by a settler that tries every second while anything is owed, so a key whose next
// request goes to another process is debited all the same.

/** Debits `spent` tokens from the shared bucket at the `Clock`'s now (refilled first, down to empty at most). */
export type SettleBucket = (bucket: string, config: TokenBucket.Config, spent: number) => Effect.Effect<void, SqlError>

/** How often the settler tries to debit what is owed while anything is. */
export const settleEveryMs = 1_000

export const settleBucket = (sql: SqlClient.SqlClient): SettleBucket => (bucket, config, spent) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    sql`SELECT rate_limit_settle(
      ${bucket}, ${config.capacity}::float8, ${config.refillPerSecond}::float8, ${spent}::float8,
      ${new Date(now)}) AS tokens_left`.pipe(Effect.asVoid))

interface Outage {
  readonly config: TokenBucket.Config
  readonly lease: OutageLease.OutageLease
}

/**
 * This process's outage leases, by bucket. `take` runs a bucket's usual take (`shared`), after settling what
 * the bucket owes; when no primary answers, it spends a token of the bucket's lease instead, and when that is
 * spent too it fails as the usual take did (503 `database_busy`). One settlement per bucket is in flight at a
 * time (the others wait for it), so an owed token is debited once. The settler runs in `scope`, only while
 * anything is owed: a process that never lost its primary runs nothing.
 */
export const makeOutageLeases = (settle: SettleBucket, scope: Scope.Scope) =>
  Effect.sync(() => {
    const outages = new Map<string, Outage>()
    const settling = new Map<string, Deferred.Deferred<void>>()
    let settlerRunning = false

    /** Debits what the bucket owes now; a failure leaves it owed. */
    const settleOne = (bucket: string): Effect.Effect<void, SqlError> =>
      Effect.suspend(() => {
        const outage = outages.get(bucket)
        if (outage === undefined) return Effect.void
        const inFlight = settling.get(bucket)
        if (inFlight !== undefined) return Deferred.await(inFlight)
        const paid = outage.lease.owed
        const done = Deferred.makeUnsafe<void>()
        settling.set(bucket, done)
        return settle(bucket, outage.config, paid).pipe(
          Effect.tap(() =>
            Effect.sync(() => {
              const now = outages.get(bucket)
              const rest = now === undefined ? undefined : OutageLease.settled(now.lease, paid)
              if (now === undefined || rest === undefined) outages.delete(bucket)
              else outages.set(bucket, { config: now.config, lease: rest })
            })
          ),
          Effect.ensuring(Effect.suspend(() => {
            settling.delete(bucket)
            return Deferred.succeed(done, undefined)
          }))
        )
      })

    const settleAll = Effect.suspend(() =>
      Effect.forEach([...outages.keys()], (bucket) => Effect.ignore(settleOne(bucket)), { discard: true }))

    const settler: Effect.Effect<void> = Effect.sleep(Duration.millis(settleEveryMs)).pipe(
      Effect.andThen(settleAll),
      Effect.andThen(Effect.suspend(() => {
        if (outages.size > 0) return settler
        settlerRunning = false
        return Effect.void
      }))
    )

    /** The request's token from the bucket's outage lease, or `error` once the lease is spent. */
    const fromLease = (bucket: string, config: TokenBucket.Config, error: SqlError) =>
      Effect.suspend((): Effect.Effect<TokenBucket.Decision, SqlError> => {
        const lease = OutageLease.spend(outages.get(bucket)?.lease ?? OutageLease.opened(config))
        if (lease === undefined) return Effect.fail(error)
        outages.set(bucket, { config, lease })
        const decision = Effect.succeed(TokenBucket.decision(config, lease.left, true))
        if (settlerRunning) return decision
        settlerRunning = true
        return Effect.andThen(Effect.forkIn(settler, scope), decision)
      })

    const take = (
      bucket: string,
      config: TokenBucket.Config,
      shared: Effect.Effect<TokenBucket.Decision, SqlError>
    ): Effect.Effect<TokenBucket.Decision, SqlError> =>
      Effect.catchIf(
        Effect.suspend(() => (outages.has(bucket) ? Effect.andThen(settleOne(bucket), shared) : shared)),
        isPrimaryUnavailable,
        (error) => fromLease(bucket, config, error)
      )

    return { take } as const
  })
