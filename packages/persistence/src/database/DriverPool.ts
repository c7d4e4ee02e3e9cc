import * as PgClient from "@effect/sql-pg/PgClient"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import type * as Reactivity from "effect/reactivity/Reactivity"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Scope from "effect/Scope"
import { ConnectionError, SqlError } from "effect/sql/SqlError"
import * as os from "node:os"
import type { Duplex } from "node:stream"
import { type ConnectionString, type Host, needsHostChoice, parseConnectionString } from "./ConnectionString.js"
import { makeHostSelector } from "./HostSelector.js"
import { roleProbe } from "./HostSearch.js"
import { type SocketSettings, tlsPolicyOf } from "./HostSocket.js"
import { hostStreams } from "./HostStream.js"
import type { HostBounds, PoolSettings, Purpose } from "./PoolSettings.js"
import { sessionRule } from "./TargetSession.js"

// The driver's pool and client (`@effect/sql-pg`'s `PgClient.make`) on one URL, with the service's bounds:
// every session on a `HostStream` (the host libpq's rules choose among a multi-host URL's, TLS as `sslmode`
// says, keepalive, the role check, the commit guard and the answer bound), the session bounds as startup
// parameters, and the driver's own prepared-statement cache unless `HOTEL_DB_PREPARED_STATEMENTS=false`.

/** Past the statement timeout, how long an answer may still take before the connection is given up. */
const answerMarginMs = 2_000

/** After a search for a host found none, how long connections fail at once with its answer. */
const quietAfterFailedSearchMs = 250

/** How long a stop waits for the pool to close before it closes the sessions still lent out. */
const closeWaitMs = 1_000

export interface DriverPool {
  readonly client: PgClient.PgClient
  /** The database's name (for spans). */
  readonly database: string
  /** The sessions open now (started, not closed). */
  readonly sessions: ReadonlySet<Duplex>
}

const refused = (message: string) =>
  new SqlError({
    reason: new ConnectionError({
      cause: new Error(message),
      message: `Cannot use the URL: ${message}`,
      operation: "connect"
    })
  })

/** Where sessions go: the one host of a plain URL, or the host a search finds and finds again on failure. */
const targetOf = (url: ConnectionString, probe: (host: Host) => ReturnType<ReturnType<typeof roleProbe>>) => {
  const first = url.hosts[0] ?? { host: "localhost", port: 5432 }
  if (!needsHostChoice(url)) return { target: () => Promise.resolve(first), onBroken: () => undefined }
  const selector = makeHostSelector({
    hosts: url.hosts,
    attrs: url.targetSessionAttrs,
    probe,
    now: () => Date.now(),
    quietMs: quietAfterFailedSearchMs
  })
  return { target: selector.current, onBroken: selector.forget }
}

/**
 * The URL with libpq's user when it names none: `PGUSER`, else the user the process runs as. The driver would
 * fall back to `USER` alone, which a service manager, `sudo` or a container may leave unset.
 */
const withUser = (url: string): string => {
  const parsed = new URL(url)
  if (parsed.username !== "") return url
  parsed.username = encodeURIComponent(process.env["PGUSER"] ?? os.userInfo().username)
  return parsed.toString()
}

/**
 * The driver's client on `url`, its pool closed with the scope: a stop waits a second for the statements
 * still running, then closes their sessions (the pool would wait for them without end).
 */
export const makeDriverPool = (
  url: Redacted.Redacted,
  settings: PoolSettings,
  hosts: HostBounds,
  purpose: Purpose
): Effect.Effect<DriverPool, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const parsed = parseConnectionString(Redacted.value(url), purpose.severalHostsDefault)
    if (Result.isFailure(parsed)) return yield* Effect.fail(refused(parsed.failure))
    const tls = tlsPolicyOf(parsed.success)
    if (Result.isFailure(tls)) return yield* Effect.fail(refused(tls.failure))
    const connection = parsed.success
    const socket: SocketSettings = { tls: tls.success, keepAliveMs: hosts.keepAliveIdleMs }
    const driverUrl = Redacted.make(withUser(connection.urlFor(connection.hosts[0] ?? { host: "localhost", port: 5432 })))
    const probe = roleProbe({
      url: driverUrl,
      applicationName: purpose.applicationName,
      connectTimeoutMs: hosts.connectTimeoutMs,
      socket
    })
    const sessions = new Set<Duplex>()

    const poolScope = yield* Scope.make()
    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        const closing = yield* Effect.forkDetach(Scope.close(poolScope, Exit.void))
        yield* Effect.timeoutOption(Fiber.join(closing), Duration.millis(closeWaitMs))
        for (const session of sessions) session.destroy()
      })
    )
    const client = yield* PgClient.make({
      url: driverUrl,
      // The stream negotiates TLS itself (`HostSocket.ts`).
      ssl: false,
      stream: hostStreams({
        ...targetOf(connection, probe),
        rule: sessionRule(connection.targetSessionAttrs),
        socket,
        connectTimeoutMs: hosts.connectTimeoutMs,
        answerTimeoutMs: settings.statementTimeoutMs + answerMarginMs,
        sessions
      }),
      // A search may ask every host first, each within the connect timeout; the stream bounds the host's own.
      connectTimeout: Duration.millis(hosts.connectTimeoutMs * (connection.hosts.length + 1)),
      applicationName: purpose.applicationName,
      startupParameters: {
        statement_timeout: String(settings.statementTimeoutMs),
        lock_timeout: String(settings.lockTimeoutMs),
        idle_in_transaction_session_timeout: String(settings.idleInTransactionTimeoutMs)
      },
      prepare: settings.preparedStatements,
      maxConnections: settings.size
    }).pipe(Scope.provide(poolScope))
    return { client, sessions, database: connection.database ?? "postgres" }
  })
