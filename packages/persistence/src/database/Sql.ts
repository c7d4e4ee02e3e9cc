import * as Reactivity from "effect/reactivity/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "effect/sql/SqlClient"
import { SqlError } from "effect/sql/SqlError"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Result"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash } from "node:crypto"
import type pg from "pg"
import { DatabaseUrl } from "./DatabaseUrl.js"
import { DatabasePool } from "./DatabasePool.js"
import {
  defaultHostBounds,
  type HostBounds,
  HostBoundsConfig,
  makePool,
  positiveSetting,
  type Purpose,
  type SessionBounds
} from "./Pool.js"
import { makeRouter, type ReadSettings, ReadSettingsConfig } from "./StandbyReads.js"

/** The pool's bounds (`SessionBounds`) and how it sends the application's statements. */
export interface PoolSettings extends SessionBounds {
  /** Run parameterised statements as named prepared statements (see `prepareStatements`). */
  readonly preparedStatements: boolean
}

/** `HOTEL_DB_*` from the environment (docs/operations.md, configuration). */
export const PoolSettingsConfig: Config.Config<PoolSettings> = Config.all({
  size: positiveSetting("HOTEL_DB_POOL_SIZE", 20),
  poolTimeoutMs: positiveSetting("HOTEL_DB_POOL_TIMEOUT_MS", 10_000),
  statementTimeoutMs: positiveSetting("HOTEL_DB_STATEMENT_TIMEOUT_MS", 30_000),
  lockTimeoutMs: positiveSetting("HOTEL_DB_LOCK_TIMEOUT_MS", 10_000),
  idleInTransactionTimeoutMs: positiveSetting("HOTEL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", 60_000),
  preparedStatements: Config.boolean("HOTEL_DB_PREPARED_STATEMENTS").pipe(Config.withDefault(true))
})

/** How many distinct statement texts a process prepares; past it, new texts run unprepared. */
const maxPreparedStatements = 200

/**
 * The application's statements run as named (prepared) statements: each connection parses and plans a text
 * once and then only binds and executes it, so neither the text nor its planning travels again on every
 * request (a quote's snapshot statement is kilobytes long). The name is a digest of the text, so one name
 * always means one text. Only parameterised statements are named: those are the application's own, with a
 * bounded set of texts; transaction control and scripts (migrations) stay plain. Statement texts are built
 * from code, never from input (values are always parameters), so the set stays small; it is capped anyway.
 */
const makeStatementNames = () => {
  // Found by length, then compared: a `Map` keyed by the text would hash every freshly compiled text (a quote's
  // snapshot statement is kilobytes long) on every statement, where a comparison stops at the first difference
  // and texts of one length are few.
  const byLength = new Map<number, Array<{ readonly text: string; readonly name: string }>>()
  let count = 0
  return (text: string): string | undefined => {
    const sameLength = byLength.get(text.length)
    const known = sameLength?.find((entry) => entry.text === text)
    if (known !== undefined) return known.name
    if (count >= maxPreparedStatements) return undefined
    const name = `q_${createHash("sha1").update(text).digest("base64url")}`
    if (sameLength === undefined) byLength.set(text.length, [{ text, name }])
    else sameLength.push({ text, name })
    count++
    return name
  }
}

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown

/** Sends a connection's parameterised statements by name (see `makeStatementNames`). */
const prepareStatements = (nameOf: (text: string) => string | undefined) => (client: pg.PoolClient) => {
  const query = client.query.bind(client) as Query
  const named: Query = (config, values, callback) => {
    const name = typeof config === "string" && Array.isArray(values) && values.length > 0 ? nameOf(config) : undefined
    return name === undefined ? query(config, values, callback) : query({ name, text: config, values }, callback)
  }
  Object.assign(client, { query: named })
}

const primaryPurpose: Purpose = { applicationName: "hotel", severalHostsDefault: "read-write" }
const readPurpose: Purpose = { applicationName: "hotel-read", severalHostsDefault: "prefer-standby" }

/**
 * The pool, ended with the layer; with `check`, checked with one query at start (a standby's pool is not: a
 * standby that is down leaves its reads to the primary, see `StandbyReads.ts`).
 */
const acquirePool = (url: Redacted.Redacted, settings: PoolSettings, hosts: HostBounds, purpose: Purpose, check = true) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const made = makePool(Redacted.value(url), settings, hosts, purpose)
        if (Result.isFailure(made)) throw new Error(made.left)
        const pool = made.right
        if (settings.preparedStatements) pool.on("connect", prepareStatements(makeStatementNames()))
        // An idle connection that the server closes is an event, not a crash of the process.
        pool.on("error", () => undefined)
        try {
          if (check) await pool.query("SELECT 1")
        } catch (cause) {
          await pool.end().catch(() => undefined)
          throw cause
        }
        return pool
      },
      catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
    }),
    // A release runs uninterruptibly, where a timeout cannot end what it bounds: `end` waits for every checked
    // out connection, and a request a stop cut may hold one in a statement for long.
    (pool) => Effect.promise(() => pool.end().catch(() => undefined)).pipe(Effect.interruptible, Effect.timeoutOption(1000))
  )

const poolStats = (pool: pg.Pool, settings: PoolSettings) =>
  Layer.succeed(DatabasePool, {
    stats: Effect.sync(() => ({
      max: settings.size,
      open: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount
    }))
  })

/**
 * The application's `SqlClient` when a read URL is given: the primary's `PgClient` (still provided as such,
 * for the migrator) behind a router that sends the reads marked `onStandby` to the read URL's client.
 */
const withStandby = (primaryPool: pg.Pool, settings: PoolSettings, hosts: HostBounds, read: ReadSettings) =>
  Layer.scopedContext(Effect.gen(function*() {
    const standbyPool = yield* acquirePool(read.url, settings, hosts, readPurpose, false)
    const primary = yield* PgClient.fromPool({ acquire: Effect.succeed(primaryPool), applicationName: "hotel" })
    const standby = yield* PgClient.fromPool({ acquire: Effect.succeed(standbyPool), applicationName: "hotel-read" })
    const router = yield* makeRouter(primary, standby, { maxLagMs: read.maxLagMs })
    return Context.make(PgClient.PgClient, primary).pipe(Context.add(SqlClient.SqlClient, router))
  })).pipe(Layer.provide(Reactivity.layer))

/**
 * The Postgres client with the given bounds; DATE columns stay `YYYY-MM-DD` text (dates carry no zone). Also
 * `DatabasePool`, the pool's figures for the metrics. `url` may name several hosts (libpq's form): the client
 * follows the primary among them. With `read`, the reads marked `onStandby` go to its URL (`StandbyReads.ts`).
 */
export const sqlLayer = (
  url: Redacted.Redacted,
  settings: PoolSettings,
  hosts: HostBounds = defaultHostBounds,
  read: Option.Option<ReadSettings> = Option.none()
) =>
  Layer.unwrapScoped(Effect.map(acquirePool(url, settings, hosts, primaryPurpose), (pool) =>
    Layer.merge(
      Option.match(read, {
        onNone: () => PgClient.layerFromPool({ acquire: Effect.succeed(pool), applicationName: "hotel" }),
        onSome: (standby) => withStandby(pool, settings, hosts, standby)
      }),
      poolStats(pool, settings)
    )))

/**
 * The Postgres client on `DatabaseUrl`, bounded by `HOTEL_DB_*` (see `PoolSettingsConfig`, `HostBoundsConfig`),
 * with `DATABASE_READ_URL`'s standby for the reads marked `onStandby` when it is set.
 */
export const SqlLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const url = yield* DatabaseUrl
    const settings = yield* PoolSettingsConfig.pipe(Effect.orDie)
    const hosts = yield* HostBoundsConfig.pipe(Effect.orDie)
    const read = yield* ReadSettingsConfig.pipe(Effect.orDie)
    return sqlLayer(url, settings, hosts, read)
  })
)
