import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { inject } from "vitest"
import { DatabaseUrl } from "../../src/database/DatabaseUrl.js"
import { runMigrations } from "../../src/database/Migrations.js"
import { HostBoundsConfig, PoolSettingsConfig } from "../../src/database/PoolSettings.js"
import { sqlLayer, SqlLive } from "../../src/database/Sql.js"
import { embeddedServer, scratchDatabase } from "./scratchPostgres.js"

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

const envUrl = (name: string): string | undefined => {
  const value = process.env[name]
  return value !== undefined && value.length > 0 ? value : undefined
}

/**
 * A Postgres server to create test databases on: `server` when given (the vitest global setup's `serverUrl`),
 * else `TEST_DATABASE_URL`, else `DATABASE_URL`, else an embedded server in a temporary directory for the
 * scope.
 */
const serverUrl = (server: string | undefined) =>
  Effect.suspend(() => {
    const given = server ?? envUrl("TEST_DATABASE_URL") ?? envUrl("DATABASE_URL")
    return given !== undefined ? Effect.succeed(given) : embeddedServer("hotel-testdb-")
  })

/** The URLs the application is given for a test database: `DATABASE_URL`, and `DATABASE_READ_URL` if any. */
export interface RoutedUrls {
  readonly url: string
  readonly readUrl?: string
}

/**
 * A fresh, uniquely named, migrated database on `server` (default: `injectedServerUrl()`, then the
 * environment, then an embedded server) for the layer's lifetime, dropped at the end. Provides the
 * `SqlClient` (and `DatabasePool`) on it, and its `DatabaseUrl` (to hand to a child process).
 */
export const TestDatabase = {
  layer: (server?: string) =>
    Layer.unwrap(
      Effect.gen(function*() {
        const url = yield* serverUrl(server ?? injectedServerUrl())
        const database = yield* scratchDatabase(url, "hotel_test")
        const DatabaseLive = SqlLive.pipe(Layer.provideMerge(DatabaseUrl.make(database)))
        return Layer.effectDiscard(runMigrations.pipe(Effect.orDie)).pipe(Layer.provideMerge(DatabaseLive))
      })
    ).pipe(Layer.orDie),

  /**
   * A fresh migrated database like `layer`, with the application's client on the URLs `route` makes of the
   * database's own URL, as `DATABASE_URL` and `DATABASE_READ_URL` would be (a multi-host URL through TCP
   * forwarders, a read URL). `route` runs in the layer's scope; its `DatabaseUrl` is the routed one.
   */
  routed: <R>(route: (database: string) => Effect.Effect<RoutedUrls, never, R | Scope.Scope>) =>
    Layer.unwrap(
      Effect.gen(function*() {
        const url = yield* serverUrl(injectedServerUrl())
        const database = yield* scratchDatabase(url, "hotel_test")
        const routes = yield* route(database)
        const settings = yield* PoolSettingsConfig
        const hosts = yield* HostBoundsConfig
        const read = Option.fromNullishOr(routes.readUrl).pipe(
          Option.map((readUrl) => ({ url: Redacted.make(readUrl), maxLagMs: 5_000 }))
        )
        const DatabaseLive = sqlLayer(Redacted.make(routes.url), settings, hosts, read).pipe(
          Layer.provideMerge(DatabaseUrl.make(routes.url))
        )
        return Layer.effectDiscard(runMigrations.pipe(Effect.orDie)).pipe(Layer.provideMerge(DatabaseLive))
      })
    ).pipe(Layer.orDie)
}
