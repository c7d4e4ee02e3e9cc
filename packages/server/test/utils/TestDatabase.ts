import { DatabaseUrl } from "@hotel/persistence/DatabaseUrl"
import { MigrationsLive } from "@hotel/persistence/Migrations"
import { SqlLive } from "@hotel/persistence/Sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import pg from "pg"
import { inject } from "vitest"

declare module "vitest" {
  export interface ProvidedContext {
    /** A Postgres server the tests may create databases on (scripts/vitest/globalSetup.ts). */
    serverUrl: string
  }
}

const admin = async <A>(serverUrl: string, f: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

/** A URL for a database named `name` on the test server. */
export const databaseUrl = (serverUrl: string, name: string): string => {
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** A fresh database for one test file, dropped afterwards (the server comes from the global setup). */
export const TestDatabaseUrl = Layer.scoped(
  DatabaseUrl,
  Effect.acquireRelease(
    Effect.promise(async () => {
      const serverUrl = inject("serverUrl")
      const name = `hotel_test_${globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`
      await admin(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`))
      return { serverUrl, name }
    }),
    ({ name, serverUrl }) =>
      Effect.promise(() => admin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)))
  ).pipe(Effect.map(({ name, serverUrl }) => Redacted.make(databaseUrl(serverUrl, name))))
)

/** A migrated fresh database's `SqlClient` (and its `DatabaseUrl`, for tests that start other processes). */
export const TestSqlLive = MigrationsLive.pipe(
  Layer.provideMerge(SqlLive),
  Layer.provideMerge(TestDatabaseUrl)
)
