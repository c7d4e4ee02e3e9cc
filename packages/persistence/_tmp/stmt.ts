import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import pg from "pg"
import { sqlLayer, PoolSettingsConfig } from "../src/Sql.js"

const url = "postgres://postgres@127.0.0.1:5432/hotel_quick"
const N = 5000
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
const main = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const run = (label: string, e: Effect.Effect<unknown, unknown>) => Effect.gen(function*() {
    for (let i = 0; i < 500; i++) yield* e
    const c0 = cpu(); const t0 = performance.now()
    for (let i = 0; i < N; i++) yield* e
    console.log(label, ((cpu() - c0) / N * 1000).toFixed(0), "µs cpu/stmt", ((performance.now() - t0) / N * 1000).toFixed(0), "µs wall")
  })
  yield* run("effect-sql", sql`SELECT ${1}::int AS n`)
  yield* run("effect-sql withSpan", sql`SELECT ${1}::int AS n`.pipe(Effect.withSpan("X.y")))
  yield* run("effect-sql in tx (BEGIN..COMMIT each)", sql.withTransaction(sql`SELECT ${1}::int AS n`))
  const pool = new pg.Pool({ connectionString: url, max: 1 })
  yield* run("raw pg", Effect.promise(() => pool.query("SELECT $1::int AS n", [1])))
  yield* run("raw pg named", Effect.promise(() => pool.query({ name: "x", text: "SELECT $1::int AS n", values: [1] })))
  yield* Effect.promise(() => pool.end())
})
const settings = { size: 1, poolTimeoutMs: 10000, statementTimeoutMs: 30000, lockTimeoutMs: 10000, idleInTransactionTimeoutMs: 60000, preparedStatements: true }
Effect.runPromise(main.pipe(Effect.provide(Layer.orDie(sqlLayer(Redacted.make(url), settings))), Effect.withTracerEnabled(false))).then(() => process.exit(0))
