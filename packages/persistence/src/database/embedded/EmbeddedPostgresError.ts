import * as Data from "effect/Data"

/**
 * The embedded PostgreSQL could not be made ready: `step` is what was being done, `reason` why it failed
 * (PostgreSQL's own message when it gave one).
 */
export class EmbeddedPostgresError extends Data.TaggedError("EmbeddedPostgresError")<{
  readonly step: string
  readonly reason: string
}> {
  override get message(): string {
    return `${this.step}: ${this.reason}`
  }
}

/**
 * The one paragraph a command prints when the embedded database does not start: what failed, why, and the
 * two ways out.
 */
export const describeEmbeddedFailure = (error: EmbeddedPostgresError): string =>
  `Could not start the embedded PostgreSQL: ${error.step} failed: ${error.reason.replace(/\.$/, "")}. ` +
  "Fix that and run the command again, or set DATABASE_URL to a PostgreSQL server of your own " +
  "(for example DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres) and no embedded one is started."

/** A failed Node call (`spawn`, `mkdir`, ...) as its message. */
export const reasonOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error)
