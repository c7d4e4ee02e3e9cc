import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import pg from "pg"
import { inject } from "vitest"
import { DatabaseUrl } from "../../src/DatabaseUrl.js"
import { EmbeddedPostgres } from "../../src/EmbeddedPostgres.js"
import { runMigrations } from "../../src/Migrations.js"
import { SqlLive } from "../../src/Sql.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** A Postgres server the tests may create databases on (set by the vitest global setup). */
    serverUrl: string
  }
}

/** The global setup's server, when the project runs with it. */
export const injectedServerUrl = (): string | undefined => {
  const url: string | undefined = inject("serverUrl")
  return url !== undefined && url.length > 0 ? url : undefined
}

const freePort = () =>
  Effect.async<number>((resume) => {
    const server = net.createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resume(Effect.succeed(port)))
    })
  })

const envUrl = (name: string): string | undefined => {
  const value = process.env[name]
  return value !== undefined && value.length > 0 ? value : undefined
}

/**
 * A Postgres server to create test databases on: `server` when given (the vitest global setup's `serverUrl`),
 * else `TEST_DATABASE_URL`, else `DATABASE_URL`, else an embedded server in a temporary directory for the
 * scope (as root, initdb runs as `postgres`, so the directory is made world-readable).
 */
const serverUrl = (server: string | undefined) =>
  Effect.gen(function*() {
    const given = server ?? envUrl("TEST_DATABASE_URL") ?? envUrl("DATABASE_URL")
    if (given !== undefined) return given
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hotel-testdb-"))
    fs.chmodSync(dir, 0o755)
    // Registered first, so it runs after the server has stopped.
    yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true })))
    const port = yield* freePort()
    const embedded = yield* EmbeddedPostgres.acquire({ dataDir: dir, port, database: "postgres" }).pipe(Effect.orDie)
    return embedded.url
  })

const withDatabase = (url: string, database: string): string => {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

const admin = <A>(url: string, f: (client: pg.Client) => Promise<A>) =>
  Effect.promise(async () => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      return await f(client)
    } finally {
      await client.end()
    }
  })

/**
 * A fresh, uniquely named, migrated database on `server` (default: `injectedServerUrl()`, then the
 * environment, then an embedded server) for the layer's lifetime, dropped at the end. Provides the
 * `SqlClient` (and `PgClient`) on it, and its `DatabaseUrl` (to hand to a child process).
 */
export const TestDatabase = {
  layer: (server?: string) =>
    Layer.unwrapScoped(
      Effect.gen(function*() {
        const url = yield* serverUrl(server ?? injectedServerUrl())
        const name = `hotel_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
        yield* Effect.acquireRelease(
          admin(url, (client) => client.query(`CREATE DATABASE "${name}"`)),
          () => admin(url, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))
        )
        const DatabaseLive = SqlLive.pipe(Layer.provideMerge(DatabaseUrl.make(withDatabase(url, name))))
        return Layer.effectDiscard(runMigrations.pipe(Effect.orDie)).pipe(
          Layer.provide(NodeContext.layer),
          Layer.provideMerge(DatabaseLive)
        )
      })
    ).pipe(Layer.orDie)
}
