import * as HelpDoc from "effect/cli/HelpDoc"
import * as ValidationError from "effect/cli/CliError"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { AdminLive } from "../main.js"
import { startupFailureText } from "../runtime/StartupFailures.js"
import { embeddedFailureText } from "./EmbeddedFailure.js"

/** A command-line problem that is not a domain error (unreadable file, bad option value). */
export class CommandFailed extends Schema.TaggedError<CommandFailed>()("CommandFailed", {
  message: Schema.String,
  param: Schema.optional(Schema.String)
}) {}

/** The one JSON document a command prints on stdout. */
export const printJson = (value: unknown): Effect.Effect<void> => Console.log(JSON.stringify(value, null, 2))

/** Runs a command's work against the migrated database (`AdminLive`, chosen in `main.ts`) and prints its result. */
export const runPrinting = <A, E, R>(work: Effect.Effect<A, E, R>) =>
  work.pipe(Effect.flatMap(printJson), Effect.provide(AdminLive))

// ---------------------------------------------------------------------------------------------------------
// Failures: one JSON document on stderr, a non-zero exit.

export const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, "")

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && key in value ? (value as Record<string, unknown>)[key] : undefined

const describe = (error: unknown): Record<string, unknown> => {
  if (ValidationError.isValidationError(error)) {
    const text = stripAnsi(HelpDoc.toAnsiText(error.error)).trim()
    return { message: text.length > 0 ? text : "invalid command line", tag: "ValidationError" }
  }
  const message = field(error, "message")
  const cause = field(error, "cause")
  const causeMessage = field(cause, "message")
  const tag = field(error, "_tag")
  const param = field(error, "param")
  const text = typeof message === "string" && message.length > 0
    ? (typeof causeMessage === "string" && causeMessage.length > 0 ? `${message}: ${causeMessage}` : message)
    : String(error)
  return {
    // A field error names its field: `currency: must be an ISO 4217 currency code`.
    message: typeof param === "string" && !text.startsWith(param) ? `${param}: ${text}` : text,
    ...(typeof tag === "string" ? { tag } : {}),
    ...(typeof param === "string" ? { param } : {})
  }
}

/** The `{ error: { message, tag?, param? } }` document for a failed command. */
export const errorJson = (cause: Cause.Cause<unknown>): { readonly error: Record<string, unknown> } => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return { error: describe(failure.value) }
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect)) return { error: { ...describe(defect.value), tag: "Defect" } }
  return { error: { message: Cause.pretty(cause) } }
}

/** Prints a failure as JSON on stderr (interruption, as by Ctrl-C, prints nothing) and keeps it a failure. */
export const reportFailure = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.tapErrorCause(self, (cause) =>
    Cause.isInterruptedOnly(cause)
      ? Effect.void
      : Effect.sync(() =>
        process.stderr.write(
          `${
            embeddedFailureText(cause).pipe(
              Option.orElse(() => startupFailureText(cause)),
              Option.getOrElse(() => JSON.stringify(errorJson(cause), null, 2))
            )
          }\n`
        )
      ))

/**
 * @effect/cli prints its own parse errors with `Console.error`; they are reported as JSON instead (help output,
 * on `Console.log`, is kept, and loggers write through `Console.unsafe`, which is untouched).
 */
export const withoutCliErrorText = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.console, (console) => Effect.withConsole(self, { ...console, error: () => Effect.void }))

/** A command group needs one of its subcommands. */
export const needsSubcommand = (usage: string) => () =>
  new CommandFailed({ message: `missing subcommand: ${usage}` })
