import * as PgConnection from "@effect/sql-pg/PgConnection"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Redacted from "effect/Redacted"
import type { SqlError } from "effect/sql/SqlError"
import type { Host } from "./ConnectionString.js"
import type { SocketSettings } from "./HostSocket.js"
import { hostStreams } from "./HostStream.js"
import type { ServerRole } from "./TargetSession.js"

// How a host search (`HostSelector.ts`) asks one host its role: a short-lived session of the driver's own,
// on the same kind of socket the pool's sessions use (TLS as the URL says), bounded by the connect timeout
// from the first byte to the answer.

export interface RoleProbeSettings {
  /** The URL the driver reads credentials and database from (its host is not used: the stream decides). */
  readonly url: Redacted.Redacted
  readonly applicationName: string
  readonly connectTimeoutMs: number
  readonly socket: SocketSettings
}

const roleQuery =
  "SELECT pg_catalog.pg_is_in_recovery() AS in_recovery, pg_catalog.current_setting('transaction_read_only') AS read_only"

/** The words of a failure for the search's answer: the socket's or the server's own, not the driver's prefix. */
const described = (error: SqlError): Error => {
  const cause = error.reason.cause
  return new Error(cause instanceof Error && cause.message.length > 0 ? cause.message : error.message)
}

const roleOf = (settings: RoleProbeSettings, host: Host) =>
  Effect.scoped(Effect.gen(function*() {
    const connection = yield* PgConnection.make({
      url: settings.url,
      ssl: false,
      prepare: false,
      applicationName: settings.applicationName,
      connectTimeout: Duration.millis(settings.connectTimeoutMs),
      stream: hostStreams({
        target: () => Promise.resolve(host),
        onBroken: () => undefined,
        rule: undefined,
        socket: settings.socket,
        connectTimeoutMs: settings.connectTimeoutMs,
        // The query's answer is bounded like the connect.
        answerTimeoutMs: settings.connectTimeoutMs,
        sessions: new Set()
      })
    })
    const result = yield* connection.query(roleQuery, [], false)
    const row = result.rows[0]
    if (row === undefined) return yield* Effect.die(new Error("the server did not say whether it is in recovery"))
    return { inRecovery: row["in_recovery"] === true, readOnly: row["read_only"] === "on" } satisfies ServerRole
  }))

/** The search's `probe`: the role of a host, or a rejection saying why it could not be asked. */
export const roleProbe = (settings: RoleProbeSettings) => (host: Host): Promise<ServerRole> =>
  Effect.runPromise(Effect.result(roleOf(settings, host))).then((outcome) => {
    if (outcome._tag === "Failure") throw described(outcome.failure)
    return outcome.success
  })
