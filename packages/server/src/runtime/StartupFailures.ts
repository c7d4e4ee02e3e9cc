import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { describeLocation } from "@hotel/persistence/database/ConnectionString"

// What stops the server before it serves anything, each as the one line an operator reads: what failed, the
// underlying reason, and what to change.

/** The HTTP (or metrics) port could not be bound. */
export class ListenFailed extends Schema.TaggedError<ListenFailed>()("ListenFailed", {
  message: Schema.String
}) {}

/** PostgreSQL at `DATABASE_URL` could not be reached (or refused the connection). */
export class DatabaseUnreachable extends Schema.TaggedError<DatabaseUnreachable>()("DatabaseUnreachable", {
  message: Schema.String
}) {}

/** A migration failed; nothing after it ran. */
export class MigrationFailed extends Schema.TaggedError<MigrationFailed>()("MigrationFailed", {
  message: Schema.String
}) {}

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && key in value ? (value as Record<string, unknown>)[key] : undefined

/** The innermost message of an error's `cause` chain: PostgreSQL's or the socket's own words. */
export const rootMessage = (error: unknown): string => {
  let message = String(field(error, "message") ?? error)
  let current: unknown = error
  for (let depth = 0; depth < 8; depth++) {
    current = field(current, "cause")
    const inner = field(current, "message")
    if (typeof inner === "string" && inner.length > 0) message = inner
    if (current === undefined) break
  }
  return message
}

/** A failure to listen on `host:port`, which `variable` sets. */
export const listenFailed = (host: string, port: number, variable: string) => (error: unknown) => {
  const code = field(field(error, "cause"), "code")
  return new ListenFailed({
    message: code === "EADDRINUSE"
      ? `port ${port} on ${host} is already in use: stop the other process or set ${variable}`
      : `cannot listen on ${host}:${port}: ${rootMessage(error)}: check ${variable} and HOST`
  })
}

/** Where `url` points (every host of a multi-host URL), without its credentials. */
export const databaseUnreachable = (url: Redacted.Redacted) => (error: unknown) =>
  new DatabaseUnreachable({
    message: `cannot connect to PostgreSQL at ${describeLocation(Redacted.value(url))}: ${rootMessage(error)}: check DATABASE_URL`
  })

const migrationName = (message: string) => /Migration "([^"]+)"/.exec(message)?.[1]

/** The first failure or defect of `cause` that `pick` recognises. */
export const findFailure = <A>(cause: Cause.Cause<unknown>, pick: (error: unknown) => Option.Option<A>): Option.Option<A> => {
  for (const reason of cause.reasons) {
    const found = Cause.isFailReason(reason) ? pick(reason.error) : Cause.isDieReason(reason) ? pick(reason.defect) : Option.none()
    if (Option.isSome(found)) return found
  }
  return Option.none()
}

/** A migration's failure (the migrator makes it a defect) as `MigrationFailed`; anything else is unchanged. */
export const migrationFailed = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | MigrationFailed, R> =>
  Effect.catchCause(self, (cause): Effect.Effect<never, E | MigrationFailed> => {
    const failed = findFailure(cause, (error) => field(error, "_tag") === "MigrationError" ? Option.some(error) : Option.none())
    if (Option.isNone(failed)) return Effect.failCause(cause)
    const message = String(field(failed.value, "message"))
    const name = migrationName(message)
    return Effect.fail(
      new MigrationFailed({
        message: name === undefined
          ? `migrations failed: ${rootMessage(failed.value)}`
          : `migration ${name} failed: ${rootMessage(failed.value)}: nothing after it was applied; fix the database or the migration and start again`
      })
    )
  })

/** The one line of a start-up failure in `cause`, if it is one. */
export const startupFailureText = (cause: Cause.Cause<unknown>): Option.Option<string> =>
  findFailure(cause, (error) =>
    error instanceof ListenFailed || error instanceof DatabaseUnreachable || error instanceof MigrationFailed
      ? Option.some(error.message)
      : Option.none())
