import * as PgClient from "@effect/sql-pg/PgClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { createHash } from "node:crypto"
import pg from "pg"
import { DatabaseUrl } from "./DatabaseUrl.js"
import { DatabasePool } from "./DatabasePool.js"

const DATE_OID = 1082

/**
 * Bounds on every connection, so that no request, however it ends, holds a connection, a row lock or an
 * open transaction for long. Postgres enforces the first three itself, on the server, so they hold whatever
 * the process does; a statement that hits one fails, its transaction rolls back, and the client is answered
 * 503 `database_busy`.
 */
export interface PoolSettings {
  readonly size: number
  /** How long a request waits for a free connection of the pool. */
  readonly poolTimeoutMs: number
  readonly statementTimeoutMs: number
  readonly lockTimeoutMs: number
  readonly idleInTransactionTimeoutMs: number
  /** Run parameterised statements as named prepared statements (see `prepareStatements`). */
  readonly preparedStatements: boolean
}

const positive = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: `${name} must be a positive integer`, validation: (n) => n > 0 })
  )

/** `HOTEL_DB_*` from the environment (docs/operations.md, configuration). */
export const PoolSettingsConfig: Config.Config<PoolSettings> = Config.all({
  size: positive("HOTEL_DB_POOL_SIZE", 20),
  poolTimeoutMs: positive("HOTEL_DB_POOL_TIMEOUT_MS", 10_000),
  statementTimeoutMs: positive("HOTEL_DB_STATEMENT_TIMEOUT_MS", 30_000),
  lockTimeoutMs: positive("HOTEL_DB_LOCK_TIMEOUT_MS", 10_000),
  idleInTransactionTimeoutMs: positive("HOTEL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", 60_000),
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
  const names = new Map<string, string>()
  return (text: string): string | undefined => {
    const known = names.get(text)
    if (known !== undefined || names.size >= maxPreparedStatements) return known
    const name = `q_${createHash("sha1").update(text).digest("base64url")}`
    names.set(text, name)
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

const makePool = (url: Redacted.Redacted, settings: PoolSettings) =>
  new pg.Pool({
    connectionString: Redacted.value(url),
    max: settings.size,
    // pg-pool applies this to the wait for a free connection as well as to connecting.
    connectionTimeoutMillis: settings.poolTimeoutMs,
    statement_timeout: settings.statementTimeoutMs,
    lock_timeout: settings.lockTimeoutMs,
    idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs,
    application_name: "hotel",
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === DATE_OID ? (value: string) => value : pg.types.getTypeParser(oid, format ?? "text")) as never
    }
  })

/** The pool, checked with one query at start, ended with the layer. */
const acquirePool = (url: Redacted.Redacted, settings: PoolSettings) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const pool = makePool(url, settings)
        if (settings.preparedStatements) pool.on("connect", prepareStatements(makeStatementNames()))
        // An idle connection that the server closes is an event, not a crash of the process.
        pool.on("error", () => undefined)
        try {
          await pool.query("SELECT 1")
        } catch (cause) {
          await pool.end().catch(() => undefined)
          throw cause
        }
        return pool
      },
      catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
    }),
    (pool) => Effect.promise(() => pool.end().catch(() => undefined)).pipe(Effect.timeoutOption(1000))
  )

/**
 * The Postgres client with the given bounds; DATE columns stay `YYYY-MM-DD` text (dates carry no zone). Also
 * `DatabasePool`, the pool's figures for the metrics.
 */
export const sqlLayer = (url: Redacted.Redacted, settings: PoolSettings) =>
  Layer.unwrapScoped(Effect.map(acquirePool(url, settings), (pool) =>
    Layer.merge(
      PgClient.layerFromPool({ acquire: Effect.succeed(pool), applicationName: "hotel" }),
      Layer.succeed(DatabasePool, {
        stats: Effect.sync(() => ({
          max: settings.size,
          open: pool.totalCount,
          idle: pool.idleCount,
          waiting: pool.waitingCount
        }))
      })
    )))

/** The Postgres client on `DatabaseUrl`, bounded by `HOTEL_DB_*` (see `PoolSettingsConfig`). */
export const SqlLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const url = yield* DatabaseUrl
    const settings = yield* PoolSettingsConfig.pipe(Effect.orDie)
    return sqlLayer(url, settings)
  })
)
