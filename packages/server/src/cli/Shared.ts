import * as Cause from "effect/Cause"
import * as CliError from "effect/cli/CliError"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { AdminLive } from "../main.js"
import { startupFailureText } from "../runtime/StartupFailures.js"
import { embeddedFailureText } from "./EmbeddedFailure.js"

/** A command-line problem that is not a domain error (unreadable file, bad option value). */
export class CommandFailed extends Schema.TaggedError<CommandFailed>()("CommandFailed", {
  message: Schema.String,
  param: Schema.optionalKey(Schema.String)
}) {}

/** The one JSON document a command prints on stdout. */
export const printJson = (value: unknown): Effect.Effect<void> => Console.log(JSON.stringify(value, null, 2))

/** Runs a command's work against the migrated database (`AdminLive`, chosen in `main.ts`) and prints its result. */
export const runPrinting = <A, E, R>(work: Effect.Effect<A, E, R>) =>
  work.pipe(Effect.flatMap(printJson), Effect.provide(AdminLive))

// ---------------------------------------------------------------------------------------------------------
// Failures: one JSON document on stderr, a non-zero exit.

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && key in value ? (value as Record<string, unknown>)[key] : undefined

/** The words of a command-line error (`Output.ts`: an unknown command names the commands there are). */
export type CliErrorText = (error: CliError.NonShowHelpErrors) => string

const describeCliError = (error: CliError.ShowHelp, text: CliErrorText): Record<string, unknown> => {
  const message = error.errors.map(text).join("; ").trim()
  return { message: message.length > 0 ? message : "invalid command line", tag: "ValidationError" }
}

/** A setting's rule (`PROCESSES must be a whole number from 1 to 64`) and where, on one line. */
const describeConfigError = (error: Config.ConfigError): Record<string, unknown> => ({
  message: error.cause.message.split("\n").map((line) => line.trim()).filter((line) => line.length > 0).join(" "),
  tag: "ConfigError"
})

const describe = (error: unknown, text: CliErrorText): Record<string, unknown> => {
  if (CliError.isCliError(error) && error._tag === "ShowHelp") return describeCliError(error, text)
  if (error instanceof Config.ConfigError) return describeConfigError(error)
  const message = field(error, "message")
  const cause = field(error, "cause")
  const causeMessage = field(cause, "message")
  const tag = field(error, "_tag")
  const param = field(error, "param")
  const words = typeof message === "string" && message.length > 0
    ? (typeof causeMessage === "string" && causeMessage.length > 0 ? `${message}: ${causeMessage}` : message)
    : String(error)
  return {
    // A field error names its field: `currency: must be an ISO 4217 currency code`.
    message: typeof param === "string" && !words.startsWith(param) ? `${param}: ${words}` : words,
    ...(typeof tag === "string" ? { tag } : {}),
    ...(typeof param === "string" ? { param } : {})
  }
}

/** The `{ error: { message, tag?, param? } }` document for a failed command. */
export const errorJson = (
  cause: Cause.Cause<unknown>,
  text: CliErrorText = (error) => error.message
): { readonly error: Record<string, unknown> } => {
  const failure = Cause.findErrorOption(cause)
  if (Option.isSome(failure)) return { error: describe(failure.value, text) }
  const defect = Cause.findDefect(cause)
  if (Result.isSuccess(defect)) return { error: { ...describe(defect.success, text), tag: "Defect" } }
  return { error: { message: Cause.pretty(cause) } }
}

/**
 * Prints a failure as JSON on stderr (interruption, as by Ctrl-C, prints nothing) and keeps it a failure. A
 * command-line error is printed here too, not by the parser (`Output.ts` prints nothing for it).
 */
export const reportFailure = (text: CliErrorText) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.tapCause(self, (cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.void
      : Effect.sync(() =>
        process.stderr.write(
          `${
            embeddedFailureText(cause).pipe(
              Option.orElse(() => startupFailureText(cause)),
              Option.getOrElse(() => JSON.stringify(errorJson(cause, text), null, 2))
            )
          }\n`
        )
      ))

/** A command group needs one of its subcommands. */
export const needsSubcommand = (usage: string) => () => new CommandFailed({ message: `missing subcommand: ${usage}` })
