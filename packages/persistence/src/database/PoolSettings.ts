import * as Config from "effect/Config"
import * as Schema from "effect/Schema"
import type { TargetSessionAttrs } from "./ConnectionString.js"

// What every pool of the process is bounded by, from `HOTEL_DB_*` (docs/operations.md, configuration).

/**
 * Bounds on every connection, so that no request, however it ends, holds a connection, a row lock or an
 * open transaction for long. Postgres enforces the last three itself, on the server, so they hold whatever
 * the process does; a statement that hits one fails, its transaction rolls back, and the client is answered
 * 503 `database_busy`.
 */
export interface SessionBounds {
  readonly size: number
  /** How long a request waits for a free connection of the pool. */
  readonly poolTimeoutMs: number
  readonly statementTimeoutMs: number
  readonly lockTimeoutMs: number
  readonly idleInTransactionTimeoutMs: number
}

/** The pool's bounds and how it sends the application's statements. */
export interface PoolSettings extends SessionBounds {
  /**
   * Run statements as named prepared statements, cached per connection by the driver (off behind a pooler
   * that cannot keep them between transactions).
   */
  readonly preparedStatements: boolean
}

/** How quickly a dead host is noticed: the connect timeout and TCP keepalive (docs/operations.md). */
export interface HostBounds {
  readonly connectTimeoutMs: number
  readonly keepAliveIdleMs: number
}

export const defaultHostBounds: HostBounds = { connectTimeoutMs: 5_000, keepAliveIdleMs: 5_000 }

/** A `HOTEL_DB_*` setting: a positive whole number, `fallback` when unset. */
export const positiveSetting = (name: string, fallback: number): Config.Config<number> =>
  Config.schema(
    Schema.Int.pipe(Schema.check(Schema.makeFilter((n: number) => n > 0, { message: `${name} must be a positive integer` }))),
    name
  ).pipe(Config.withDefault(fallback))

/** `HOTEL_DB_*` from the environment. */
export const PoolSettingsConfig: Config.Config<PoolSettings> = Config.all({
  size: positiveSetting("HOTEL_DB_POOL_SIZE", 20),
  poolTimeoutMs: positiveSetting("HOTEL_DB_POOL_TIMEOUT_MS", 10_000),
  statementTimeoutMs: positiveSetting("HOTEL_DB_STATEMENT_TIMEOUT_MS", 30_000),
  lockTimeoutMs: positiveSetting("HOTEL_DB_LOCK_TIMEOUT_MS", 10_000),
  idleInTransactionTimeoutMs: positiveSetting("HOTEL_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", 60_000),
  preparedStatements: Config.Boolean("HOTEL_DB_PREPARED_STATEMENTS").pipe(Config.withDefault(true))
})

/** `HOTEL_DB_CONNECT_TIMEOUT_MS`, `HOTEL_DB_KEEPALIVE_IDLE_MS`. */
export const HostBoundsConfig: Config.Config<HostBounds> = Config.all({
  connectTimeoutMs: positiveSetting("HOTEL_DB_CONNECT_TIMEOUT_MS", defaultHostBounds.connectTimeoutMs),
  keepAliveIdleMs: positiveSetting("HOTEL_DB_KEEPALIVE_IDLE_MS", defaultHostBounds.keepAliveIdleMs)
})

/** What a pool is for: its sessions' `application_name`, and the session a multi-host URL asks for by default. */
export interface Purpose {
  readonly applicationName: string
  readonly severalHostsDefault: TargetSessionAttrs
}

export const primaryPurpose: Purpose = { applicationName: "hotel", severalHostsDefault: "read-write" }

export const readPurpose: Purpose = { applicationName: "hotel-read", severalHostsDefault: "prefer-standby" }
