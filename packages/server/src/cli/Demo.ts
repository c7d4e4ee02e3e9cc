import * as Command from "@effect/cli/Command"
import { allScopes, parsePropertyFileJson } from "@hotel/domain"
import { ApiKeyRepository } from "@hotel/persistence/platform/ApiKeyRepository"
import { PropertyImport } from "@hotel/persistence/property/PropertyImport"
import * as Effect from "effect/Effect"
import { fileURLToPath } from "node:url"
import { readTextFile } from "./Property.js"
import { runPrinting } from "./Shared.js"

/** The bundled demo property (`packages/server/demo/harbour.json`). */
export const demoFile = fileURLToPath(new URL("../../demo/harbour.json", import.meta.url))

/** Imports the demo property (idempotent) and creates a new key with every scope for it. */
export const installDemo = Effect.gen(function*() {
  const file = yield* readTextFile(demoFile).pipe(Effect.flatMap(parsePropertyFileJson))
  const imported = yield* Effect.flatMap(PropertyImport, (importer) => importer.importFile(file))
  const apiKey = yield* Effect.flatMap(ApiKeyRepository, (keys) =>
    keys.create({ propertyId: imported.property_id, scopes: allScopes, context: "back_office", label: "demo" }))
  return { imported, apiKey }
})

/** `hotel demo`: prints the import result with `api_key_id` and `key`. */
export const demo = Command.make("demo", {}, () =>
  runPrinting(Effect.map(installDemo, ({ apiKey, imported }) => ({ ...imported, ...apiKey })))).pipe(
    Command.withDescription("Import the bundled demo property and create a key with every scope")
  )
