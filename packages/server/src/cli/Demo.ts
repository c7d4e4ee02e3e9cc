import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import { demoDocument, installDemo } from "../runtime/FirstStart.js"
import { runPrinting } from "./Shared.js"

export { demoFile } from "../runtime/FirstStart.js"

/** `hotel demo`: prints the demo's ids and a new key, in the shape the first `npm start` prints them. */
export const demo = Command.make("demo", {}, () =>
  runPrinting(Effect.map(installDemo, demoDocument))).pipe(
    Command.withDescription("Import the bundled demo property and create a key with every scope")
  )
