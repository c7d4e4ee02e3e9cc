import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Reactivity from "effect/reactivity/Reactivity"
import type * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { DatabasePool } from "./DatabasePool.js"
import { DatabaseUrl } from "./DatabaseUrl.js"
import { makeDriverPool } from "./DriverPool.js"
import { makeLeaseClient } from "./LeaseClient.js"
import { type LeasedPool, leasedPool } from "./PoolLease.js"
import {
  defaultHostBounds,
  type HostBounds,
  HostBoundsConfig,
  type PoolSettings,
  PoolSettingsConfig,
  primaryPurpose,
  type Purpose,
  readPurpose
} from "./PoolSettings.js"
import { makeRouter, type ReadSettings, ReadSettingsConfig } from "./StandbyReads.js"

export { type PoolSettings, PoolSettingsConfig } from "./PoolSettings.js"

/**
 * A pool on `url` for the scope; with `check`, checked with one statement at start (a standby's pool is not: a
 * standby that is down leaves its reads to the primary, see `StandbyReads.ts`).
 */
const acquirePool = (
  url: Redacted.Redacted,
  settings: PoolSettings,
  hosts: HostBounds,
  purpose: Purpose,
  check: boolean
): Effect.Effect<LeasedPool, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const driver = yield* makeDriverPool(url, settings, hosts, purpose)
    const pool = leasedPool(driver, settings.size, settings.poolTimeoutMs)
    if (check) {
      yield* Effect.scoped(Effect.flatMap(pool.lease, (connection) => connection.executeUnprepared("SELECT 1", [], undefined)))
    }
    return pool
  })

/**
 * The Postgres client with the given bounds (DATE columns are `YYYY-MM-DD` text, the driver's default: dates
 * carry no zone), and `DatabasePool`, the primary pool's figures for the metrics. `url` may name several hosts
 * (libpq's form): the client follows the primary among them. With `read`, the reads marked `onStandby` go to
 * its URL (`StandbyReads.ts`).
 */
export const sqlLayer = (
  url: Redacted.Redacted,
  settings: PoolSettings,
  hosts: HostBounds = defaultHostBounds,
  read: Option.Option<ReadSettings> = Option.none()
): Layer.Layer<SqlClient.SqlClient | DatabasePool, SqlError> =>
  Layer.effectContext(Effect.gen(function*() {
    const primary = yield* acquirePool(url, settings, hosts, primaryPurpose, true)
    const sql = yield* Option.match(read, {
      onNone: () => makeLeaseClient({ acquirer: primary.lease, transactionAcquirer: primary.lease, database: primary.database }),
      onSome: (standby) =>
        Effect.flatMap(
          acquirePool(standby.url, settings, hosts, readPurpose, false),
          (readPool) => makeRouter(primary, readPool, standby)
        )
    })
    return Context.make(SqlClient.SqlClient, sql).pipe(Context.add(DatabasePool, DatabasePool.of({ stats: primary.stats })))
  })).pipe(Layer.provide(Reactivity.layer))

/**
 * The Postgres client on `DatabaseUrl`, bounded by `HOTEL_DB_*` (see `PoolSettingsConfig`, `HostBoundsConfig`),
 * with `DATABASE_READ_URL`'s standby for the reads marked `onStandby` when it is set.
 */
export const SqlLive = Layer.unwrap(
  Effect.gen(function*() {
    const url = yield* DatabaseUrl
    const settings = yield* Effect.orDie(PoolSettingsConfig)
    const hosts = yield* Effect.orDie(HostBoundsConfig)
    const read = yield* Effect.orDie(ReadSettingsConfig)
    return sqlLayer(url, settings, hosts, read)
  })
)
