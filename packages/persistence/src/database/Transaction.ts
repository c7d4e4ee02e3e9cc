import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"

/**
 * Runs a write in the transaction already open around it, or in one of its own. A request with an
 * `Idempotency-Key` runs in the transaction that holds its key (`IdempotencyKeys`), which ends in a rollback
 * whenever the request fails, so a savepoint of the write's own (what a nested `sql.withTransaction` opens)
 * could never be rolled back to alone: it would be one round trip more for nothing. No write recovers from a
 * failed statement and goes on in the same transaction, which only a savepoint would allow.
 */
export const inTransaction = (sql: SqlClient.SqlClient) =>
<A, E, R>(write: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
  Effect.flatMap(
    Effect.serviceOption(sql.transactionService),
    (open): Effect.Effect<A, E | SqlError, R> => Option.isSome(open) ? write : sql.withTransaction(write)
  )
