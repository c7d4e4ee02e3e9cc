// Throw-away PostgreSQL for tests and tools (the benchmark): an embedded server in a temporary directory, and
// fresh databases on any server, each gone when its scope closes.
import * as PgConnection from "@effect/sql-pg/PgConnection"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { EmbeddedPostgres } from "../../src/database/EmbeddedPostgres.js"
import { freePort } from "./freePort.js"

/**
 * An embedded server in a temporary directory (named `prefix`…) for the scope; answers its URL. Dies with
 * an `EmbeddedPostgresError` when it cannot start.
 */
export const embeddedServer = (prefix: string) =>
  Effect.gen(function*() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
    // Registered first, so it runs after the server has stopped.
    yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true })))
    const port = yield* freePort()
    const embedded = yield* EmbeddedPostgres.acquire({
      dataDir: dir,
      port,
      database: "postgres",
      temporary: true,
      settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" }
    }).pipe(Effect.orDie)
    return embedded.url
  })

/** One statement on a session of its own to `url` (a server's administration: databases made and dropped). */
const admin = (url: string, statement: string) =>
  Effect.scoped(
    Effect.flatMap(PgConnection.make({ url: Redacted.make(url), ssl: false, prepare: false }), (connection) =>
      connection.query(statement, [], false))
  ).pipe(Effect.orDie)

/**
 * A fresh, uniquely named database (`prefix_…`) on `server` for the scope, dropped at its end even with
 * connections still open. Answers its URL.
 */
export const scratchDatabase = (server: string, prefix: string) =>
  Effect.gen(function*() {
    const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
    yield* Effect.acquireRelease(
      admin(server, `CREATE DATABASE "${name}"`),
      () => admin(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    )
    const url = new URL(server)
    url.pathname = `/${name}`
    return url.toString()
  })
