import * as Command from "@effect/cli/Command"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
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
  if (count > 0) return
  const { apiKey, imported } = yield* installDemo
  yield* printJson({ demo: imported, api_key: apiKey })
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
