import type * as CliError from "effect/cli/CliError"
import * as CliOutput from "effect/cli/CliOutput"
import type * as Command from "effect/cli/Command"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import type { CliErrorText } from "./Shared.js"

// What the command line prints of its own: help and the version on stdout; its errors are the JSON error
// document on stderr (`Shared.ts`), so the parser's own rendering of them (help text on stdout, styled errors
// on stderr) is not printed.

/**
 * `--help` styled on a terminal and plain text into a pipe (a script's or a CI log's), and `--version` as the
 * bare version number, which scripts compare.
 */
export const OutputLive: Layer.Layer<never> = CliOutput.layerPresenter({
  present: (event) =>
    Effect.suspend(() => {
      switch (event._tag) {
        case "Help": {
          const formatter = CliOutput.defaultFormatter({ colors: process.stdout.isTTY === true })
          return Console.log(formatter.formatHelpDoc(event.helpDoc))
        }
        case "Version":
          return Console.log(event.version)
        case "InvalidInvocation":
          return Effect.void
      }
    })
})

const subcommandsAt = (root: Command.Command.Any, path: ReadonlyArray<string>): ReadonlyArray<string> => {
  let command = root
  for (const name of path.slice(1)) {
    const next = command.subcommands.flatMap((group) => group.commands).find((sub) => sub.name === name)
    if (next === undefined) return []
    command = next
  }
  return command.subcommands.flatMap((group) => group.commands).filter((sub) => !sub.unlisted).map((sub) => sub.name)
}

/**
 * The words of a command-line error under `root`: an unknown command names the commands there are
 * (`Invalid subcommand for hotel - use one of 'serve', 'migrate', ...`), which the parser's error does not;
 * any other error in the parser's words.
 */
export const errorTextUnder = (root: Command.Command.Any): CliErrorText => (error: CliError.NonShowHelpErrors) => {
  if (error._tag !== "UnknownSubcommand") return error.message
  const path = error.parent ?? [root.name]
  const names = subcommandsAt(root, path).map((name) => `'${name}'`)
  return `Invalid subcommand for ${path[path.length - 1] ?? root.name} - use${names.length === 1 ? "" : " one of"} ${
    names.join(", ")
  }`
}
