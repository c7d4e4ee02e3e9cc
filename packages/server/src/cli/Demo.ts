import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import { installDemo } from "../runtime/FirstStart.js"
import { runPrinting } from "./Shared.js"

export { demoFile } from "../runtime/FirstStart.js"

/** `hotel demo`: prints the import result with `api_key_id` and `key`. */
export const demo = Command.make("demo", {}, () =>
  runPrinting(Effect.map(installDemo, ({ apiKey, imported }) => ({ ...imported, ...apiKey })))).pipe(
    Command.withDescription("Import the bundled demo property and create a key with every scope")
  )
