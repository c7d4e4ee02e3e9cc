import * as PgConnection from "@effect/sql-pg/PgConnection"
import { describe, expect, layer } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import { ConnectionError, SqlError, UnknownError } from "effect/sql/SqlError"
import { isDatabaseBusy } from "../../src/database/DatabaseBusy.js"
import { DatabasePool } from "../../src/database/DatabasePool.js"
import { DatabaseUrl } from "../../src/database/DatabaseUrl.js"
import type { PoolSettings } from "../../src/database/PoolSettings.js"
import { sqlLayer } from "../../src/database/Sql.js"
import { freePort } from "../utils/freePort.js"
import { TestDatabase } from "../utils/TestDatabase.js"

// The bounds every connection carries (DriverPool.ts, PoolLease.ts), on a real server: a statement that hits one fails with an
// error that `isDatabaseBusy` recognises (answered 503 `database_busy`), and the connection stays usable.

const settings: PoolSettings = {
  size: 1,
  poolTimeoutMs: 200,
  statementTimeoutMs: 300,
  lockTimeoutMs: 200,
  idleInTransactionTimeoutMs: 10_000,
  preparedStatements: true
}

/**
 * `effect` on a pool of one connection with the tight `settings`: a client of its own, so outside any
 * transaction of the caller's client.
 */
const bounded = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | DatabasePool>, overrides: Partial<PoolSettings> = {}) =>
  Effect.flatMap(DatabaseUrl, (url) => Effect.provide(effect, Layer.orDie(sqlLayer(url, { ...settings, ...overrides }))))

const failure = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.flatMap(Effect.flip(effect), (error) => Effect.succeed(error))

describe("connection bounds", () => {
  layer(TestDatabase.layer(), { excludeTestServices: true })((it) => {
    it.effect("a statement over the statement timeout is a busy database, and the pool goes on", () =>
      bounded(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const error = yield* failure(sql`SELECT pg_sleep(2)`)
        expect(isDatabaseBusy(error)).toBe(true)
        expect(yield* sql<{ one: number }>`SELECT 1 AS one`).toEqual([{ one: 1 }])
      })))

    it.effect("a lock held longer than the lock timeout is a busy database", () =>
      Effect.gen(function*() {
        const outer = yield* SqlClient.SqlClient
        yield* outer`CREATE TABLE bounds_probe (id int PRIMARY KEY)`
        yield* outer`INSERT INTO bounds_probe VALUES (1)`
        // The test database's own client holds the row; the bounded pool then waits for it.
        const error = yield* outer.withTransaction(Effect.gen(function*() {
          yield* outer`SELECT id FROM bounds_probe WHERE id = 1 FOR UPDATE`
          return yield* bounded(Effect.flatMap(SqlClient.SqlClient, (sql) =>
            failure(sql`UPDATE bounds_probe SET id = 1 WHERE id = 1`)))
        }))
        expect(isDatabaseBusy(error)).toBe(true)
      }).pipe(Effect.orDie))

    it.effect("no free connection within the pool timeout is a busy database", () =>
      bounded(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const error = yield* Effect.scoped(Effect.andThen(sql.reserve, failure(sql`SELECT 1`)))
        expect(isDatabaseBusy(error)).toBe(true)
      })))

    it.effect("the pool's figures: connections open, idle, and requests waiting for one", () =>
      bounded(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const pool = yield* DatabasePool
        yield* sql`SELECT 1`
        expect(yield* pool.stats).toEqual({ max: 1, open: 1, idle: 1, waiting: 0 })
        const taken = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const holder = yield* Effect.forkChild(
          sql.withTransaction(Effect.andThen(Deferred.succeed(taken, undefined), Deferred.await(release)))
        )
        yield* Deferred.await(taken)
        const waiter = yield* Effect.forkChild(sql`SELECT 1`)
        // Until the forked statement has asked for the one connection.
        while ((yield* pool.stats).waiting === 0) yield* Effect.yieldNow
        expect(yield* pool.stats).toEqual({ max: 1, open: 1, idle: 0, waiting: 1 })
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(holder)
        yield* Fiber.join(waiter)
        expect(yield* pool.stats).toEqual({ max: 1, open: 1, idle: 1, waiting: 0 })
      }), { poolTimeoutMs: 5_000 }))

    it.effect("a database that cannot be reached (refused, lost, restarting) is busy too, not a bug", () =>
      Effect.gen(function*() {
        const port = yield* freePort()
        const refused = yield* Effect.flip(Effect.scoped(PgConnection.make({ host: "127.0.0.1", port, username: "postgres", ssl: false })))
        expect(isDatabaseBusy(refused)).toBe(true)
        // As the driver reports a connection lost under a statement, and the server's own words at start-up.
        const lost = new ConnectionError({ cause: new Error("Connection closed"), message: "PgConnection: Connection closed" })
        expect(isDatabaseBusy(new SqlError({ reason: lost }))).toBe(true)
        const startingUp = Object.assign(new Error("the database system is starting up"), { code: "57P03" })
        expect(isDatabaseBusy(new SqlError({ reason: new UnknownError({ cause: startingUp }) }))).toBe(true)
        const failure = Object.assign(new Error("connection failure"), { code: "08006" })
        expect(isDatabaseBusy(new SqlError({ reason: new ConnectionError({ cause: failure }) }))).toBe(true)
      }))

    it.effect("other failures are not", () =>
      bounded(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        expect(isDatabaseBusy(yield* failure(sql`SELECT * FROM no_such_table`))).toBe(false)
        expect(isDatabaseBusy(new Error("timeout exceeded when trying to connect"))).toBe(false)
      })))

    // The same text twice on the pool's one connection: prepared once, by name (the driver's cache).
    const preparedOnce = Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`SELECT ${1}::int AS n`
      const [again] = yield* sql<{ n: number }>`SELECT ${2}::int AS n`
      expect(again?.n).toBe(2)
      return yield* sql<{ name: string; statement: string }>`
        SELECT name, statement FROM pg_prepared_statements ORDER BY statement`
    })

    it.effect("statements are prepared once per connection and run by name after that", () =>
      bounded(Effect.gen(function*() {
        const prepared = (yield* preparedOnce).map((row) => row.statement.trim())
        // The two executions of one text share one prepared statement; the catalogue query is the other.
        expect(prepared.filter((text) => text === "SELECT $1::int AS n")).toHaveLength(1)
        expect(prepared).toContain("SELECT name, statement FROM pg_prepared_statements ORDER BY statement")
        expect(prepared).toHaveLength(2)
      })))

    it.effect("with HOTEL_DB_PREPARED_STATEMENTS off nothing is prepared", () =>
      bounded(preparedOnce, { preparedStatements: false }).pipe(Effect.map((prepared) => expect(prepared).toEqual([]))))
  })
})
