import * as FileSystem from "effect/FileSystem"
import * as SqlClient from "effect/sql/SqlClient"
import { allScopes, parsePropertyFileJson } from "@hotel/domain"
import { ApiKeyRepository } from "@hotel/persistence/platform/ApiKeyRepository"
import { PropertyImport } from "@hotel/persistence/property/PropertyImport"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { fileURLToPath } from "node:url"
import { seedDemoBlock } from "./DemoBlock.js"
import { ApiAddressConfig } from "./NodeServer.js"

/** The bundled demo property (`packages/server/demo/harbour.json`). */
export const demoFile = fileURLToPath(new URL("../../demo/harbour.json", import.meta.url))

/** Imports the demo property (idempotent) with its one block, and creates a new key with every scope for it. */
export const installDemo = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  // The demo ships with the code: a demo that cannot be read or parsed is a broken build, not a user error.
  const file = yield* fs.readFileString(demoFile).pipe(Effect.flatMap(parsePropertyFileJson), Effect.orDie)
  // Its plans never move to another room type: a refusal would be a broken build as well.
  const imported = yield* Effect.flatMap(PropertyImport, (importer) => importer.importFile(file)).pipe(Effect.orDie)
  yield* seedDemoBlock(imported)
  const apiKey = yield* Effect.flatMap(ApiKeyRepository, (keys) =>
    keys.create({ propertyId: imported.property_id, scopes: allScopes, context: "back_office", label: "demo" }))
  return { imported, apiKey }
})

/** What `npm start`'s first run and `hotel demo` print alike: `{ demo: <the import's ids>, api_key: { api_key_id, key } }`. */
export const demoDocument = ({ apiKey, imported }: Effect.Success<typeof installDemo>) => ({ demo: imported, api_key: apiKey })

/**
 * On a later start the demo key is not printed again (it is stored hashed): say where the docs are and
 * how to get a key, on stderr with the logs (stdout carries only JSON).
 */
const whereToStart = (sql: SqlClient.SqlClient) =>
  Effect.gen(function*() {
    const { host, port } = yield* ApiAddressConfig
    const rows = yield* sql<{ id: string }>`SELECT id FROM properties ORDER BY created_at LIMIT 1`
    const property = rows[0]?.id ?? "<property id>"
    const base = `http://${host}:${port}`
    yield* Effect.sync(() =>
      process.stderr.write([
        "The database already holds a property, so no demo key is printed this time.",
        `  API reference: ${base}/docs   OpenAPI description: ${base}/openapi.json`,
        `  A new key:     npm run -s hotel -- key create --property ${property} --scopes ${allScopes.join(",")}`,
        "  A fresh demo property with an all-scopes key: npm run -s hotel -- demo",
        ""
      ].join("\n"))
    )
  })

/**
 * On an empty embedded database, installs the demo property and prints its ids and an all-scopes key (once).
 * An operator's database (`DATABASE_URL`) is never seeded: a demo key in production logs is a credential leak.
 */
export const seedDemoWhenEmpty = Effect.gen(function*() {
  if ((yield* Config.String("DATABASE_URL").pipe(Config.withDefault(""))).length > 0) return
  const sql = yield* SqlClient.SqlClient
  const [{ count }] = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM properties`
  if (count > 0) return yield* whereToStart(sql)
  yield* Console.log(JSON.stringify(demoDocument(yield* installDemo), null, 2))
})
