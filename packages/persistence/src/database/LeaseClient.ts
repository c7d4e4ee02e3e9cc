import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as SqlClient from "effect/sql/SqlClient"
import type { Connection } from "effect/sql/SqlConnection"
import { SqlError, UnknownError } from "effect/sql/SqlError"

// The application's `SqlClient`: the driver's statement compiler and transaction handling, as `PgClient.make`
// sets them up, over the service's own leases (`PoolLease.ts`, and for reads that may go to a standby the
// router of `StandbyReads.ts`) instead of the driver's unbounded checkout.

/** The command tag of the driver's raw result (a `PgConnection.Result`). */
const isRolledBack = (result: unknown): boolean =>
  typeof result === "object" && result !== null && "command" in result && result.command === "ROLLBACK"

/** The driver's own check (not exported by it): a COMMIT of an aborted transaction answers ROLLBACK. */
const commit = (connection: Connection): Effect.Effect<void, SqlError> =>
  Effect.flatMap(connection.executeRaw("COMMIT", []), (result) =>
    isRolledBack(result)
      ? Effect.fail(
        new SqlError({
          reason: new UnknownError({
            cause: new Error("COMMIT rolled back an aborted transaction"),
            message: "COMMIT rolled back an aborted transaction",
            operation: "commit"
          })
        })
      )
      : Effect.void)

export interface LeaseClientOptions {
  /** A connection for a statement outside a transaction. */
  readonly acquirer: Effect.Effect<Connection, SqlError, Scope.Scope>
  /** A connection for a transaction: always the primary's. */
  readonly transactionAcquirer: Effect.Effect<Connection, SqlError, Scope.Scope>
  readonly database: string
}

export const makeLeaseClient = (options: LeaseClientOptions) =>
  SqlClient.make({
    acquirer: options.acquirer,
    transactionAcquirer: options.transactionAcquirer,
    compiler: PgClient.makeCompiler(),
    // As the driver's client: Postgres prepares transaction control like any statement.
    prepareTransactionControls: true,
    commit,
    releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`,
    driver: "pg",
    spanAttributes: [["db.system.name", "postgresql"], ["db.namespace", options.database]]
  })
