import * as Clock from "effect/Clock"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import type { Connection } from "effect/sql/SqlConnection"
import type { SqlError } from "effect/sql/SqlError"
import { isConnectionFailure, isPrimaryUnavailable, isRecoveryConflict } from "./DatabaseBusy.js"
import { makeLeaseClient } from "./LeaseClient.js"
import type { LeasedPool } from "./PoolLease.js"
import { positiveSetting } from "./PoolSettings.js"
import { type LagReading, lagStatement, measureEveryMs, standbyUsable } from "./ReplicaLag.js"

// Reads that may be a moment stale (quotes, availability, the catalogue, rate plans) served by a standby
// (`DATABASE_READ_URL`), everything else by the primary. The application keeps one `SqlClient`: with a read
// URL it is a router whose statements go to the primary, except those of a region marked `onStandby` that run
// outside any transaction, which go to the standby while its replay lag is within `HOTEL_READ_MAX_LAG_MS`.
// A transaction always runs on the primary, so a write (and what it reads) never sees a standby.

/** Present in the context of a region whose plain reads may be served by the standby. */
export class PreferStandby extends Context.Service<PreferStandby, true>()("@hotel/persistence/database/PreferStandby") {}

/**
 * Lets the statements of `effect` that run outside a transaction be served by the standby (when there is one
 * and it is fresh enough). For reads that may be a moment stale only: never a read a client expects to see
 * its own writes in.
 */
export const onStandby = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, PreferStandby>> =>
  Effect.provideService(effect, PreferStandby, true)

/**
 * `self` on the primary as usual; when it fails because no primary answers (the failover window,
 * `isPrimaryUnavailable`), `fallback` instead, with its plain reads on the standby (`onStandby`). For the reads
 * every request needs before its handler (its API key, the maintenance window, readiness), so that the reads a
 * standby serves need no primary at all. Without a read URL, or with a standby too far behind, the fallback runs
 * on the primary and fails as `self` did.
 */
export const orOnStandby = <A2, R2>(fallback: Effect.Effect<A2, SqlError, R2>) =>
<A, R>(self: Effect.Effect<A, SqlError, R>): Effect.Effect<A | A2, SqlError, R | Exclude<R2, PreferStandby>> =>
  Effect.catchIf(self, isPrimaryUnavailable, () => onStandby(fallback))

/** A statement the standby could not answer, run once more on the primary. */
const orOnPrimary = <A>(primary: LeasedPool, run: (connection: Connection) => Effect.Effect<A, SqlError>) =>
(self: Effect.Effect<A, SqlError>): Effect.Effect<A, SqlError> =>
  Effect.catchIf(
    self,
    (error) => isRecoveryConflict(error) || isConnectionFailure(error),
    () => Effect.scoped(Effect.flatMap(primary.lease, run))
  )

/** A standby connection whose failed statements are retried once on the primary (streams are not). */
const retriedOnPrimary = (standby: Connection, primary: LeasedPool): Connection => ({
  execute: (sql, params, transformRows) =>
    standby.execute(sql, params, transformRows).pipe(
      orOnPrimary(primary, (connection) => connection.execute(sql, params, transformRows))
    ),
  executeRaw: (sql, params) =>
    standby.executeRaw(sql, params).pipe(orOnPrimary(primary, (connection) => connection.executeRaw(sql, params))),
  executeValues: (sql, params) =>
    standby.executeValues(sql, params).pipe(orOnPrimary(primary, (connection) => connection.executeValues(sql, params))),
  executeValuesUnprepared: (sql, params) =>
    standby.executeValuesUnprepared(sql, params).pipe(
      orOnPrimary(primary, (connection) => connection.executeValuesUnprepared(sql, params))
    ),
  executeUnprepared: (sql, params, transformRows) =>
    standby.executeUnprepared(sql, params, transformRows).pipe(
      orOnPrimary(primary, (connection) => connection.executeUnprepared(sql, params, transformRows))
    ),
  executeStream: (sql, params, transformRows) => standby.executeStream(sql, params, transformRows)
})

/** Where the reads that may be a moment stale go (`DATABASE_READ_URL`), and the standby's lag bound. */
export interface ReadSettings {
  readonly url: Redacted.Redacted
  readonly maxLagMs: number
}

const readConfig = Config.all({
  url: Config.option(Config.Redacted("DATABASE_READ_URL")),
  maxLagMs: positiveSetting("HOTEL_READ_MAX_LAG_MS", 5_000)
})

/** `DATABASE_READ_URL` (unset or empty: none) and `HOTEL_READ_MAX_LAG_MS`. */
export const ReadSettingsConfig: Config.Config<Option.Option<ReadSettings>> = Config.map(readConfig, ({ maxLagMs, url }) =>
  Option.filter(url, (value) => Redacted.value(value).length > 0).pipe(Option.map((value) => ({ url: value, maxLagMs }))))

/**
 * The application's `SqlClient` over the primary's pool and a standby's, with the standby's lag measured in
 * the background for the scope's lifetime (once before it returns, so the first requests already know).
 */
export const makeRouter = (primary: LeasedPool, standby: LeasedPool, settings: Pick<ReadSettings, "maxLagMs">) =>
  Effect.gen(function*() {
    const reading = yield* Ref.make<LagReading | undefined>(undefined)
    const measure = Effect.scoped(Effect.flatMap(standby.lease, (connection) => connection.execute(lagStatement, [], undefined))).pipe(
      Effect.map((rows) => {
        const lag = rows[0]?.["lag_ms"]
        return typeof lag === "number" ? lag : null
      }),
      Effect.catchCause(() => Effect.succeed(null)),
      // A span a second would be most of an idle process's traces.
      Effect.withTracerEnabled(false),
      Effect.flatMap((lagMs) => Effect.flatMap(Clock.currentTimeMillis, (at) => Ref.set(reading, { at, lagMs })))
    )
    yield* measure
    yield* Effect.forkScoped(Effect.repeat(measure, Schedule.spaced(measureEveryMs(settings.maxLagMs))))

    const usable = Effect.zipWith(Ref.get(reading), Clock.currentTimeMillis, (last, now) =>
      standbyUsable(last, now, settings.maxLagMs))
    const onStandbyConnection = standby.lease.pipe(
      Effect.map((connection) => retriedOnPrimary(connection, primary)),
      // A standby that cannot be reached: the primary answers.
      Effect.catchIf(isConnectionFailure, () => primary.lease)
    )
    const acquirer = Effect.flatMap(
      Effect.serviceOption(PreferStandby),
      (preferred) =>
        Option.isNone(preferred)
          ? primary.lease
          : Effect.flatMap(usable, (fresh) => (fresh ? onStandbyConnection : primary.lease))
    )
    return yield* makeLeaseClient({ acquirer, transactionAcquirer: primary.lease, database: primary.database })
  })
