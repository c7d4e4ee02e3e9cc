import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as SqlClient from "effect/sql/SqlClient"
import { isSqlError } from "effect/sql/SqlError"
import { isDatabaseBusy } from "../../src/database/DatabaseBusy.js"
import { DatabaseUrl } from "../../src/database/DatabaseUrl.js"
import { NoSuitableHost } from "../../src/database/HostSelector.js"
import type { HostBounds, PoolSettings } from "../../src/database/PoolSettings.js"
import { CommitNotReplicated } from "../../src/database/SessionFailures.js"
import { sqlLayer } from "../../src/database/Sql.js"
import { freePort } from "../utils/freePort.js"
import { hostOf, tcpProxy, withHosts } from "../utils/TcpProxy.js"
import { TestDatabase } from "../utils/TestDatabase.js"

// A multi-host DATABASE_URL on a real server: the pool connects to the host libpq's rules choose, skips hosts
// that are down, unresponsive or in the wrong role, and finds the host again when the one it used goes away.
// Several "hosts" of one server are TCP forwarders in front of it (`TcpProxy`), which fail as machines do.

const settings: PoolSettings = {
  size: 2,
  poolTimeoutMs: 3_000,
  statementTimeoutMs: 300,
  lockTimeoutMs: 200,
  idleInTransactionTimeoutMs: 10_000,
  preparedStatements: true
}

const hosts: HostBounds = { connectTimeoutMs: 300, keepAliveIdleMs: 1_000 }

/** `effect` on a client of `url` (a client of its own, so outside any transaction of the caller's). */
const on = <A, E>(url: string, effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.provide(effect, sqlLayer(Redacted.make(url), settings, hosts))

/** The failure's own cause, under the driver's classification (`SqlError.reason`). */
const causeOf = (error: unknown): unknown => (isSqlError(error) ? error.reason.cause : error)

const database = Effect.map(DatabaseUrl, Redacted.value)

const select1 = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ one: number }>`SELECT 1 AS one`)

const failure = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.flip(effect)

describe("a multi-host DATABASE_URL", () => {
  layer(TestDatabase.layer(), { excludeTestServices: true })((it) => {
    it.effect("a host that is down first in the list: the pool connects to the next one, the primary", () =>
      Effect.gen(function*() {
        const url = yield* database
        const down = yield* freePort()
        const formation = withHosts(url, [`127.0.0.1:${down}`, hostOf(url)], { target_session_attrs: "read-write" })
        const rows = yield* on(formation, Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql<{ primary: boolean }>`SELECT NOT pg_is_in_recovery() AS primary`))
        expect(rows).toEqual([{ primary: true }])
      }))

    it.effect("a host that accepts connections and never answers is given up after the connect timeout", () =>
      Effect.scoped(Effect.gen(function*() {
        const url = yield* database
        const silent = yield* tcpProxy({ host: "127.0.0.1", port: Number(hostOf(url).split(":")[1]) })
        silent.set("silent")
        const formation = withHosts(url, [`127.0.0.1:${silent.port}`, hostOf(url)], { target_session_attrs: "read-write" })
        expect(yield* on(formation, select1)).toEqual([{ one: 1 }])
      })))

    it.effect("no host in the role asked for (a failover window): a busy database, saying what each host is", () =>
      Effect.gen(function*() {
        const url = yield* database
        const down = yield* freePort()
        const formation = withHosts(url, [`127.0.0.1:${down}`, hostOf(url)], { target_session_attrs: "standby" })
        const error = yield* failure(on(formation, select1))
        expect(isSqlError(error)).toBe(true)
        expect(isDatabaseBusy(error)).toBe(true)
        const cause = causeOf(error)
        expect(cause).toBeInstanceOf(NoSuitableHost)
        expect(String(cause)).toMatch(/no host for target_session_attrs=standby .*ECONNREFUSED.* is a primary/)
      }))

    it.effect("prefer-standby without a standby: the first server that answers serves", () =>
      Effect.gen(function*() {
        const url = yield* database
        const down = yield* freePort()
        const formation = withHosts(url, [`127.0.0.1:${down}`, hostOf(url)], { target_session_attrs: "prefer-standby" })
        expect(yield* on(formation, select1)).toEqual([{ one: 1 }])
      }))

    it.effect("the host in use goes away: the pool finds the other host without a restart; meanwhile only busy answers", () =>
      Effect.scoped(Effect.gen(function*() {
        const url = yield* database
        const target = { host: "127.0.0.1", port: Number(hostOf(url).split(":")[1]) }
        const first = yield* tcpProxy(target)
        const second = yield* tcpProxy(target)
        const formation = withHosts(url, [`127.0.0.1:${first.port}`, `127.0.0.1:${second.port}`], {
          target_session_attrs: "read-write"
        })
        yield* on(formation, Effect.gen(function*() {
          expect(yield* select1).toEqual([{ one: 1 }])
          expect(second.forwarded()).toBe(0)
          first.set("refuse")
          // The pool's connection through the first host breaks under a statement at most once.
          const attempts: Array<boolean> = []
          let answered = false
          while (!answered && attempts.length < 3) {
            const outcome = yield* Effect.result(select1)
            answered = outcome._tag === "Success"
            if (outcome._tag === "Failure") attempts.push(isDatabaseBusy(outcome.failure))
          }
          expect(answered).toBe(true)
          expect(attempts.every((busy) => busy)).toBe(true)
          expect(second.forwarded()).toBeGreaterThan(0)
        }))
      })))

    it.effect("a statement cut short sends its cancel on a connection of its own, and the host stays chosen", () =>
      Effect.scoped(Effect.gen(function*() {
        const url = yield* database
        const target = { host: "127.0.0.1", port: Number(hostOf(url).split(":")[1]) }
        const first = yield* tcpProxy(target)
        const second = yield* tcpProxy(target)
        first.set("refuse")
        const formation = withHosts(url, [`127.0.0.1:${first.port}`, `127.0.0.1:${second.port}`], {
          target_session_attrs: "read-write"
        })
        yield* on(formation, Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          expect(yield* select1).toEqual([{ one: 1 }])
          const cut = yield* Effect.timeoutOption(sql`SELECT pg_sleep(5)`, "100 millis")
          expect(cut._tag).toBe("None")
          // Were the host forgotten, the next connection would search again and take the first host, back now.
          first.set("forward")
          const both = Effect.all([0, 1].map(() => sql.withTransaction(sql`SELECT pg_sleep(0.2)`)), { concurrency: 2 })
          yield* both
          expect(first.forwarded()).toBe(0)
        }))
      })))

    it.effect("a new connection to the host in use is refused when its server no longer takes writes", () =>
      Effect.gen(function*() {
        const url = yield* database
        const outer = yield* SqlClient.SqlClient
        const name = new URL(url).pathname.slice(1)
        const formation = withHosts(url, [hostOf(url)], { target_session_attrs: "read-write" })
        yield* on(formation, Effect.scoped(Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          expect(yield* select1).toEqual([{ one: 1 }])
          // From now on the server's new sessions are read-only (as a demoted primary's are); it says so at start-up.
          yield* Effect.acquireRelease(
            outer.unsafe(`ALTER DATABASE "${name}" SET default_transaction_read_only = on`),
            () => Effect.orDie(outer.unsafe(`ALTER DATABASE "${name}" RESET default_transaction_read_only`))
          )
          const both = Effect.all([0, 1].map(() => sql.withTransaction(sql`SELECT pg_sleep(0.2)`)), {
            concurrency: 2,
            mode: "result"
          })
          const refused = (yield* both).flatMap((outcome) => outcome._tag === "Failure" ? [outcome.failure] : [])
          expect(refused).toHaveLength(1)
          expect(isDatabaseBusy(refused[0])).toBe(true)
          expect(String(causeOf(refused[0]))).toContain("is no longer what target_session_attrs=read-write asks for")
        })))
      }))

    it.effect("a host that goes silent under a statement: it fails as a lost connection soon after the statement timeout", () =>
      Effect.scoped(Effect.gen(function*() {
        const url = yield* database
        const proxy = yield* tcpProxy({ host: "127.0.0.1", port: Number(hostOf(url).split(":")[1]) })
        const formation = withHosts(url, [`127.0.0.1:${proxy.port}`], { target_session_attrs: "read-write" })
        yield* on(formation, Effect.gen(function*() {
          expect(yield* select1).toEqual([{ one: 1 }])
          proxy.set("silent")
          const error = yield* failure(select1)
          expect(isDatabaseBusy(error)).toBe(true)
          expect(String(causeOf(error))).toContain("no answer from the database within 2300 ms")
        }))
      })))

    it.effect("a commit reported without the synchronous standby's confirmation fails as a busy database", () =>
      Effect.gen(function*() {
        const url = yield* database
        // The server sends the very warning PostgreSQL sends when the wait for the standby is cancelled.
        const error = yield* failure(on(url, Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql.unsafe(`DO $$ BEGIN RAISE WARNING 'canceling wait for synchronous replication due to user request'; END $$`))))
        expect(causeOf(error)).toBeInstanceOf(CommitNotReplicated)
        expect(isDatabaseBusy(error)).toBe(true)
        // Another warning is only a warning.
        yield* on(url, Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DO $$ BEGIN RAISE WARNING 'something else'; END $$`)))
      }))

    it.effect("a single-host URL connects to its host, as before", () =>
      Effect.gen(function*() {
        const url = yield* database
        expect(yield* on(url, select1)).toEqual([{ one: 1 }])
      }))
  })
})
