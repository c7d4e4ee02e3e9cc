import * as Config from "effect/Config"
import * as Either from "effect/Result"
import pg from "pg"
import { type ClientBounds, clientClass, probeWith } from "./ClientClass.js"
import {
  type ConnectionString,
  needsHostChoice,
  opportunisticSslModes,
  parseConnectionString,
  type TargetSessionAttrs
} from "./ConnectionString.js"
import { makeHostSelector } from "./HostSelector.js"

// A `pg.Pool` on one URL: a single-host URL is handed to `pg` as it is; a multi-host one (or one naming a
// kind of session) goes through a `HostSelector`, which finds the host libpq's rules would choose and finds it
// again when it fails or changes role.

const DATE_OID = 1082

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

/** How quickly a dead host is noticed: the connect timeout and TCP keepalive (docs/operations.md). */
export interface HostBounds {
  readonly connectTimeoutMs: number
  readonly keepAliveIdleMs: number
}

export const defaultHostBounds: HostBounds = { connectTimeoutMs: 5_000, keepAliveIdleMs: 5_000 }

/** A `HOTEL_DB_*` setting: a positive whole number, `fallback` when unset. */
export const positiveSetting = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: `${name} must be a positive integer`, validation: (n) => n > 0 })
  )

/** `HOTEL_DB_CONNECT_TIMEOUT_MS`, `HOTEL_DB_KEEPALIVE_IDLE_MS`. */
export const HostBoundsConfig: Config.Config<HostBounds> = Config.all({
  connectTimeoutMs: positiveSetting("HOTEL_DB_CONNECT_TIMEOUT_MS", defaultHostBounds.connectTimeoutMs),
  keepAliveIdleMs: positiveSetting("HOTEL_DB_KEEPALIVE_IDLE_MS", defaultHostBounds.keepAliveIdleMs)
})

/**
 * Past the statement timeout, how long a statement's answer may still take to arrive before the client gives
 * the connection up: the server's own timeout answers first whenever the server is there.
 */
const answerMarginMs = 2_000

/** After a search for a host found none, how long connections fail at once with its answer. */
const quietAfterFailedSearchMs = 250

/** Which kind of session a multi-host URL without `target_session_attrs` asks for. */
export type Purpose = { readonly applicationName: string; readonly severalHostsDefault: TargetSessionAttrs }

const sessionOptions = (bounds: SessionBounds, applicationName: string): pg.PoolConfig => ({
  max: bounds.size,
  // pg-pool applies this to the wait for a free connection as well as to connecting.
  connectionTimeoutMillis: bounds.poolTimeoutMs,
  statement_timeout: bounds.statementTimeoutMs,
  lock_timeout: bounds.lockTimeoutMs,
  idle_in_transaction_session_timeout: bounds.idleInTransactionTimeoutMs,
  application_name: applicationName,
  types: {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      oid === DATE_OID ? (value: string) => value : pg.types.getTypeParser(oid, format ?? "text")) as never
  }
})

/** A URL that only libpq's multi-host form explains (a comma between hosts, a kind of session). */
const looksMultiHost = (url: string) => /^[^?#]*:\/\/[^/?#]*,/.test(url) || url.includes("target_session_attrs")

const formationPool = (parsed: ConnectionString, options: pg.PoolConfig, bounds: ClientBounds) => {
  const opportunisticTls = parsed.sslMode !== undefined && opportunisticSslModes.has(parsed.sslMode)
  // libpq's `prefer` does not verify the server's certificate; `pg` would insist on it.
  const tls = (plain: boolean): pg.ClientConfig => (opportunisticTls ? { ssl: plain ? false : { rejectUnauthorized: false } } : {})
  const selector = makeHostSelector({
    hosts: parsed.hosts,
    attrs: parsed.targetSessionAttrs,
    probe: probeWith((host, plain) => ({
      connectionString: parsed.urlFor(host),
      application_name: options.application_name ?? "hotel",
      connectionTimeoutMillis: bounds.connectTimeoutMs,
      query_timeout: bounds.connectTimeoutMs,
      ...tls(plain)
    }), opportunisticTls),
    now: () => Date.now(),
    quietMs: quietAfterFailedSearchMs
  })
  const first = parsed.hosts[0] ?? { host: "localhost", port: 5432 }
  return new pg.Pool({
    ...options,
    ...tls(false),
    connectionString: parsed.urlFor(first),
    Client: clientClass(bounds, { selector, attrs: parsed.targetSessionAttrs })
  })
}

/**
 * The pool on `url` with the bounds; a URL that cannot be read as libpq's (a bad `target_session_attrs`, a
 * host list that makes no sense) is the message why.
 */
export const makePool = (
  url: string,
  session: SessionBounds,
  hosts: HostBounds,
  purpose: Purpose
): Result.Result<pg.Pool, string> => {
  const options = sessionOptions(session, purpose.applicationName)
  const bounds: ClientBounds = {
    connectTimeoutMs: hosts.connectTimeoutMs,
    keepAliveIdleMs: hosts.keepAliveIdleMs,
    answerTimeoutMs: session.statementTimeoutMs + answerMarginMs
  }
  const parsed = parseConnectionString(url, purpose.severalHostsDefault)
  if (Result.isFailure(parsed)) {
    // Anything else `pg` reads as it always has (a Unix socket directory, parameters in the query).
    return looksMultiHost(url)
      ? Result.fail(parsed.left)
      : Result.succeed(new pg.Pool({ ...options, connectionString: url, Client: clientClass(bounds) }))
  }
  return needsHostChoice(parsed.right)
    ? Result.succeed(formationPool(parsed.right, options, bounds))
    : Result.succeed(new pg.Pool({ ...options, connectionString: url, Client: clientClass(bounds) }))
}
