import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as FileSystem from "effect/FileSystem"
import * as Path from "effect/Path"
import { parsePropertyFileJson } from "@hotel/domain"
import { PropertyImport } from "@hotel/persistence/property/PropertyImport"
import * as Effect from "effect/Effect"
import { CommandFailed, needsSubcommand, runPrinting } from "./Shared.js"

/** Reads a text file; a relative path is taken from where `npm run` was started. */
export const readTextFile = (file: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const base = process.env["INIT_CWD"] ?? process.cwd()
    return yield* fs.readFileString(path.resolve(base, file)).pipe(
      Effect.mapError((error) => new CommandFailed({ message: `cannot read ${file}: ${error.message}`, param: "FILE" }))
    )
  })

const importCommand = Command.make("import", { file: Argument.String("FILE") }, ({ file }) =>
  runPrinting(
    Effect.gen(function*() {
      const parsed = yield* readTextFile(file).pipe(Effect.flatMap(parsePropertyFileJson))
      const importer = yield* PropertyImport
      return yield* importer.importFile(parsed)
    })
  )).pipe(Command.withDescription("Create or update (matched by code) a property from a JSON property file"))

/** `hotel property import FILE`. */
export const property = Command.make("property", {}, needsSubcommand("property import FILE")).pipe(
  Command.withDescription("Property files"),
  Command.withSubcommands([importCommand])
)
