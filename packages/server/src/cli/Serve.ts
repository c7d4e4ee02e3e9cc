import * as Command from "@effect/cli/Command"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { allScopes } from "@hotel/domain"
import { installDemo } from "./Demo.js"
import { printJson, ServicesLive } from "./Shared.js"

/**
 * On an empty embedded database, installs the demo property and prints its ids and an all-scopes key (once).
 * An operator's database (`DATABASE_URL`) is never seeded: a demo key in production logs is a credential leak.
 */
const seedWhenEmpty = Effect.gen(function*() {
  if ((yield* Config.string("DATABASE_URL").pipe(Config.withDefault(""))).length > 0) return
  const sql = yield* SqlClient.SqlClient
  const [{ count }] = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM properties`
  if (count > 0) return yield* whereToStart(sql)
  const { apiKey, imported } = yield* installDemo
  yield* printJson({ demo: imported, api_key: apiKey })
})

/**
 * On a later start the demo key is not printed again (it is stored hashed): say where the docs are and
 * how to get a key, on stderr with the logs (stdout carries only JSON).
 */
const whereToStart = (sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    const port = yield* Config.integer("PORT").pipe(Config.withDefault(3000))
    const host = yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
    const rows = yield* sql<{ id: string }>`SELECT id FROM properties ORDER BY created_at LIMIT 1`
    const property = rows[0]?.id ?? "<property id>"
    const base = `http://${host}:${port}`
    yield* Effect.sync(() =>
      process.stderr.write([
        "The database already holds a property, so no demo key is printed this time.",
        `  API reference: ${base}/docs   OpenAPI description: ${base}/openapi.json`,
        `  A new key:     npm run hotel -- key create --property ${property} --scopes ${allScopes.join(",")}`,
        "  A fresh demo property with an all-scopes key: npm run hotel -- demo",
        ""
      ].join("\n"))
    )
  })

/**
 * The application (`main.ts`) over the command's migrated database. It is loaded only by `serve`, so the
 * other commands start fast and need no HTTP code.
 */
const launchServer = Effect.promise(() => import("../main.js")).pipe(
  Effect.flatMap(({ ApplicationLive }) => Layer.launch(ApplicationLive))
)

/** `hotel serve`: migrates, seeds an empty embedded database with the demo, then serves the API on HOST:PORT. */
export const serve = Command.make("serve", {}, () =>
  seedWhenEmpty.pipe(
    Effect.zipRight(launchServer),
    Effect.provide(ServicesLive)
  )).pipe(Command.withDescription("Run the API (PORT, default 3000; HOST, default 127.0.0.1)"))
