import * as PgConnection from "@effect/sql-pg/PgConnection"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

// The host a pool connects to among the hosts of a multi-host URL: the same shape as the project's
// `HostSelector.ts` today (remember the host found, search again only when told to forget it, one search at a
// time, fail fast for a moment after a search found nothing), with the search done by the v4 driver's own
// `PgConnection.make` on short-lived sessions instead of `pg.Client`.

export interface Host {
  readonly host: string
  readonly port: number
}

export interface ServerRole {
  readonly inRecovery: boolean
  readonly readOnly: boolean
}

export type SessionRule = "any" | "read-write" | "read-only" | "primary" | "standby"

export const accepts = (rule: SessionRule, role: ServerRole): boolean =>
  rule === "any" ? true
  : rule === "read-write" ? !role.readOnly
  : rule === "read-only" ? role.readOnly
  : rule === "primary" ? !role.inRecovery
  : role.inRecovery

/** No host is what the URL asks for. SQLSTATE 08001, as libpq says it: a busy database, not a bug. */
export class NoSuitableHost extends Error {
  readonly code = "08001"
}

export interface SearchSettings {
  readonly hosts: ReadonlyArray<Host>
  readonly rule: SessionRule
  readonly username: string
  readonly database: string
  readonly connectTimeout: Duration.Duration
  readonly quietMs: number
}

const roleQuery =
  "SELECT pg_catalog.pg_is_in_recovery() AS in_recovery, pg_catalog.current_setting('transaction_read_only') AS read_only"

const hostText = (host: Host) => `${host.host}:${host.port}`

/** The role of one host, on a session of its own that ends with the scope (bounded by `connectTimeout`). */
const roleOf = (settings: SearchSettings, host: Host) =>
  Effect.scoped(Effect.gen(function*() {
    const connection = yield* PgConnection.make({
      host: host.host,
      port: host.port,
      username: settings.username,
      database: settings.database,
      ssl: false,
      prepare: false,
      applicationName: "hotel-host-search",
      connectTimeout: settings.connectTimeout
    })
    const result = yield* connection.query(roleQuery, [], false).pipe(Effect.timeout(settings.connectTimeout))
    const row = result.rows[0]
    return { inRecovery: row?.["in_recovery"] === true, readOnly: row?.["read_only"] === "on" } satisfies ServerRole
  }))

export const makeHostChoice = (settings: SearchSettings) => {
  let known: Host | undefined
  let searching: Promise<Host> | undefined
  let failed: { readonly at: number; readonly error: NoSuitableHost } | undefined
  const answers: Array<string> = []

  const search = async (): Promise<Host> => {
    answers.length = 0
    for (const host of settings.hosts) {
      const outcome = await Effect.runPromise(Effect.result(roleOf(settings, host)))
      if (outcome._tag === "Failure") {
        answers.push(`${hostText(host)}: ${outcome.failure.message}`)
        continue
      }
      if (accepts(settings.rule, outcome.success)) return host
      answers.push(`${hostText(host)} is ${outcome.success.inRecovery ? "a standby" : "read-only"}`)
    }
    throw new NoSuitableHost(`no host for target_session_attrs=${settings.rule} (${answers.join("; ")})`)
  }

  const current = (): Promise<Host> => {
    if (known !== undefined) return Promise.resolve(known)
    if (searching !== undefined) return searching
    if (failed !== undefined && Date.now() - failed.at < settings.quietMs) return Promise.reject(failed.error)
    const started = search().then(
      (host) => {
        known = host
        failed = undefined
        return host
      },
      (error: unknown) => {
        const answer = error instanceof NoSuitableHost ? error : new NoSuitableHost(String(error))
        failed = { at: Date.now(), error: answer }
        throw answer
      }
    ).finally(() => {
      searching = undefined
    })
    searching = started
    return started
  }

  const forget = (host: Host) => {
    if (known !== undefined && known.host === host.host && known.port === host.port) known = undefined
  }

  return { current, forget, answers: () => [...answers] }
}

export type HostChoice = ReturnType<typeof makeHostChoice>
