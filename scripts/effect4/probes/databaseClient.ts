// The database client on @effect/sql-pg 4.0.5, run against the machine's PostgreSQL (127.0.0.1:5432, trust,
// user postgres): `PATH=$PWD/node_modules/.bin:$PATH npx tsx scripts/effect4/probes/databaseClient.ts`.
// Creates a database of its own and drops it. Each check prints ok or FAIL; the exit code is 1 on any FAIL.
import * as PgClient from "@effect/sql-pg/PgClient"
import * as PgConnection from "@effect/sql-pg/PgConnection"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as Redacted from "effect/Redacted"
import { SqlError } from "effect/sql/SqlError"
import { type Host, makeHostChoice, type SessionRule } from "./pg/HostChoice.js"
import { hostStreams } from "./pg/HostStream.js"
import { makePoolClient, type PoolFigures } from "./pg/PoolClient.js"

const database = `e4probe_${process.pid}`
let failures = 0
const check = (name: string, ok: boolean, detail: string) => {
  if (!ok) failures++
  console.log(`${ok ? "ok  " : "FAIL"} ${name}: ${detail}`)
}

/** Reason tag, SQLSTATE and the cause's message of a failure: what `DatabaseBusy` would classify. */
const describe = (error: unknown): { tag: string; code: string | undefined; text: string } => {
  if (!(error instanceof SqlError)) return { tag: "not a SqlError", code: undefined, text: String(error) }
  const cause = error.reason.cause
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined
  const text = cause instanceof Error ? `${cause.constructor.name}: ${cause.message}` : String(cause)
  return { tag: error.reason._tag, code, text }
}

const failureOf = <A>(effect: Effect.Effect<A, SqlError>) =>
  Effect.map(Effect.flip(effect), describe)

/** libpq's multi-host URL, which the driver's own parser (WHATWG `URL`) refuses; the project parses it. */
const hostsOf = (url: string): Array<Host> =>
  (/^postgres(?:ql)?:\/\/(?:[^@/]*@)?([^/?]*)/.exec(url)?.[1] ?? "").split(",").map((entry) => {
    const [host = "localhost", port = "5432"] = entry.split(":")
    return { host, port: Number(port) }
  })

interface ProbeOptions {
  readonly url: string
  readonly rule: SessionRule
  readonly statementTimeoutMs: number
  readonly answerTimeoutMs: number
  readonly max: number
  readonly extraStartup?: Record<string, string>
}

/** The chosen design: the driver's pool and client, a `stream` that follows the primary, a bounded facade. */
const makeClient = (options: ProbeOptions) =>
  Effect.gen(function*() {
    const choice = makeHostChoice({
      hosts: hostsOf(options.url),
      rule: options.rule,
      username: "postgres",
      database,
      connectTimeout: Duration.seconds(2),
      quietMs: 250
    })
    const open = { count: 0 }
    const pg = yield* PgClient.make({
      username: "postgres",
      database,
      ssl: false, // the stream negotiates TLS itself (libpq's `prefer`)
      stream: hostStreams({ choice, rule: options.rule, tls: "prefer", keepAliveMs: 5_000, answerTimeoutMs: options.answerTimeoutMs, open }),
      connectTimeout: Duration.seconds(5),
      prepare: false, // HOTEL_DB_PREPARED_STATEMENTS=false
      applicationName: "hotel",
      startupParameters: {
        statement_timeout: String(options.statementTimeoutMs),
        lock_timeout: "500",
        idle_in_transaction_session_timeout: "60000",
        ...options.extraStartup
      },
      maxConnections: options.max
    })
    const figures: PoolFigures = { max: options.max, open: 0, busy: 0, waiting: 0 }
    const sql = yield* makePoolClient(pg, figures, 1_000)
    const stats = () => ({ ...figures, open: open.count, idle: open.count - figures.busy })
    return { pg, sql, choice, stats }
  })

const local = `postgres://postgres@127.0.0.1:1,127.0.0.1:5432/${database}?target_session_attrs=read-write&sslmode=prefer`

const checks = Effect.gen(function*() {
  const urlRefused = yield* Effect.flip(PgConnection.make({ url: Redacted.make(local) }).pipe(Effect.scoped))
  check("driver's URL parser and a multi-host URL", true, `refused as expected: ${urlRefused.message}`)

  const { choice, sql, stats } = yield* makeClient({ url: local, rule: "read-write", statementTimeoutMs: 1_000, answerTimeoutMs: 3_000, max: 4 })

  const [session] = yield* sql<{ port: number; st: string; lt: string; iit: string; app: string; pid: number }>`
    SELECT inet_server_port() AS port, current_setting('statement_timeout') AS st, current_setting('lock_timeout') AS lt,
      current_setting('idle_in_transaction_session_timeout') AS iit, current_setting('application_name') AS app,
      pg_backend_pid() AS pid`
  check("connects to the live host of two", session?.port === 5432, `port ${session?.port}; search: ${choice.answers().join("; ") || "first host answered"}`)
  check("startup parameters", session?.st === "1s" && session.lt === "500ms" && session.iit === "1min" && session.app === "hotel",
    `statement_timeout=${session?.st} lock_timeout=${session?.lt} idle_in_transaction_session_timeout=${session?.iit} application_name=${session?.app}`)

  yield* sql`CREATE TABLE item (id int PRIMARY KEY, note text)`
  const prepared = yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`SELECT ${1}::int AS one`
    yield* sql`SELECT ${1}::int AS one`
    return yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_prepared_statements`
  }))
  check("prepared-statement cache off", prepared[0]?.n === 0, `${prepared[0]?.n} prepared statements on the session`)

  yield* sql.withTransaction(Effect.all([sql`INSERT INTO item VALUES (1, 'a')`, sql`INSERT INTO item VALUES (2, 'b')`]))
  const rolledBack = yield* Effect.flip(sql.withTransaction(Effect.andThen(sql`INSERT INTO item VALUES (3, 'c')`, Effect.fail("no"))))
  const [count] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM item`
  check("transaction commits, and rolls back on failure", count?.n === 2 && rolledBack === "no", `${count?.n} rows`)

  const unique = yield* failureOf(sql`INSERT INTO item VALUES (1, 'again')`)
  check("unique violation recognised", unique.tag === "UniqueViolation" && unique.code === "23505", `${unique.tag} ${unique.code}`)

  const timedOut = yield* failureOf(sql`SELECT pg_sleep(3)`)
  check("statement_timeout", timedOut.tag === "StatementTimeoutError" && timedOut.code === "57014", `${timedOut.tag} ${timedOut.code}: ${timedOut.text}`)

  const locked = yield* Deferred.make<void>()
  const holder = yield* Effect.forkChild(sql.withTransaction(
    Effect.andThen(sql`SELECT id FROM item WHERE id = 1 FOR UPDATE`, Effect.andThen(Deferred.succeed(locked, undefined), Effect.sleep("1 second")))
  ))
  yield* Deferred.await(locked)
  const lockWait = yield* failureOf(sql`UPDATE item SET note = 'x' WHERE id = 1`)
  check("lock_timeout under a concurrent lock", lockWait.tag === "LockTimeoutError" && lockWait.code === "55P03", `${lockWait.tag} ${lockWait.code}`)
  yield* Fiber.join(holder)

  // A backend killed under a query: its FATAL 57P01 is read, but the close that follows before any
  // ReadyForQuery fails the statement as a ConnectionError (the SQLSTATE is not kept).
  const started = yield* Deferred.make<number>()
  // In a transaction, the ROLLBACK on the dead connection fails too, and `withTransaction` runs it under
  // `orDie`: the cause carries the statement's failure and the rollback's defect, both SqlErrors.
  const victim = yield* Effect.forkChild(Effect.exit(sql.withTransaction(Effect.gen(function*() {
    const [me] = yield* sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`
    yield* Deferred.succeed(started, me?.pid ?? 0)
    yield* sql`SELECT pg_sleep(0.9)`
  }))))
  const pid = yield* Deferred.await(started)
  yield* Effect.sleep("100 millis")
  yield* sql`SELECT pg_terminate_backend(${pid})`
  const exit = yield* Fiber.join(victim)
  const reasons = exit._tag === "Failure"
    ? exit.cause.reasons.map((reason) => `${reason._tag}(${JSON.stringify(describe(reason._tag === "Fail" ? reason.error : reason._tag === "Die" ? reason.defect : undefined))})`)
    : []
  console.log(`     cause of the killed transaction: ${reasons.join(" + ")}`)
  const first = exit._tag === "Failure" ? exit.cause.reasons[0] : undefined
  const killed = describe(first?._tag === "Fail" ? first.error : first?._tag === "Die" ? first.defect : undefined)
  const [after] = yield* sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`
  check("connection lost mid-transaction", killed.tag === "ConnectionError" && after !== undefined && after.pid !== pid,
    `${killed.tag} ${killed.code}: ${killed.text}; next statement on backend ${after?.pid}, not ${pid}`)

  const plainStarted = yield* Deferred.make<number>()
  const plainVictim = yield* Effect.forkChild(failureOf(Effect.scoped(Effect.flatMap(sql.reserve, (connection) =>
    Effect.gen(function*() {
      const rows = yield* connection.execute("SELECT pg_backend_pid() AS pid", [], undefined)
      yield* Deferred.succeed(plainStarted, Number(rows[0]?.pid))
      yield* connection.execute("SELECT pg_sleep(0.9)", [], undefined)
    })))))
  yield* sql`SELECT pg_terminate_backend(${yield* Deferred.await(plainStarted)})`
  const plainKilled = yield* Fiber.join(plainVictim)
  check("connection lost mid-statement", plainKilled.tag === "ConnectionError", `${plainKilled.tag} ${plainKilled.code}: ${plainKilled.text}; open after: ${stats().open}`)

  const warned = yield* failureOf(sql`DO $$ BEGIN RAISE WARNING 'canceling wait for synchronous replication due to user request'; END $$`)
  check("unreplicated-commit WARNING fails the statement", warned.text.startsWith("CommitNotReplicated"), `${warned.tag}: ${warned.text}`)

  const gate = yield* Deferred.make<void>()
  const busyFor = yield* Effect.forkChild(Effect.all(
    Array.from({ length: 4 }, () => sql.withTransaction(Effect.andThen(Deferred.await(gate), sql`SELECT 1`))),
    { concurrency: "unbounded" }
  ))
  yield* Effect.sleep("200 millis")
  const during = stats()
  const starved = yield* failureOf(sql`SELECT 1`)
  yield* Deferred.succeed(gate, undefined)
  yield* Fiber.join(busyFor)
  check("pool wait bounded, figures", starved.tag === "ConnectionError" && during.busy === 4 && during.open === 4,
    `${starved.tag}: ${starved.text}; during: ${JSON.stringify(during)}; after: ${JSON.stringify(stats())}`)
})

const roleAndHosts = Effect.gen(function*() {
  // A server whose new sessions are read-only (as a standby's are) is refused by a read-write pool at startup.
  const readOnly = yield* makeClient({ url: local, rule: "read-write", statementTimeoutMs: 1_000, answerTimeoutMs: 3_000, max: 2, extraStartup: { default_transaction_read_only: "on" } })
  const refused = yield* failureOf(readOnly.sql`SELECT 1`)
  check("role check on each new connection", refused.tag === "ConnectionError" && refused.code === "08001", `${refused.tag} ${refused.code}: ${refused.text}`)

  const slow = yield* makeClient({ url: local, rule: "read-write", statementTimeoutMs: 5_000, answerTimeoutMs: 300, max: 2 })
  const unanswered = yield* failureOf(slow.sql`SELECT pg_sleep(1)`)
  check("no answer within the bound closes the connection", unanswered.tag === "ConnectionError" && unanswered.text.includes("300 ms"), `${unanswered.tag}: ${unanswered.text}`)

  const dead = yield* makeClient({ url: `postgres://postgres@127.0.0.1:1,127.0.0.1:2/${database}`, rule: "read-write", statementTimeoutMs: 1_000, answerTimeoutMs: 3_000, max: 2 })
  const none = yield* failureOf(dead.sql`SELECT 1`)
  const t0 = Date.now()
  const again = yield* failureOf(dead.sql`SELECT 1`)
  check("no host: 08001, then fail fast", none.code === "08001" && again.code === "08001", `${none.tag} ${none.code}: ${none.text}; again after ${Date.now() - t0} ms`)
})

const admin = Effect.flatMap(PgConnection.make({ host: "127.0.0.1", port: 5432, username: "postgres", database: "postgres", ssl: false }), (connection) =>
  Effect.acquireRelease(
    connection.query(`CREATE DATABASE ${database}`, [], false),
    () => Effect.ignore(connection.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`, [], false))
  ))

const main = Effect.gen(function*() {
  yield* admin
  yield* Effect.scoped(checks)
  yield* Effect.scoped(roleAndHosts)
}).pipe(Effect.scoped, Effect.provide(Reactivity.layer))

Effect.runPromise(main).then(
  () => {
    console.log(failures === 0 ? "all checks passed" : `${failures} check(s) failed`)
    process.exit(failures === 0 ? 0 : 1)
  },
  (error: unknown) => {
    console.error("probe crashed:", error)
    process.exit(2)
  }
)

