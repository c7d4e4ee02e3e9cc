import * as PgClient from "@effect/sql-pg/PgClient"
import type * as PgConnection from "@effect/sql-pg/PgConnection"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as SqlClient from "effect/sql/SqlClient"
import type { Connection } from "effect/sql/SqlConnection"
import { ConnectionError, SqlError, UnknownError } from "effect/sql/SqlError"

// The application's `SqlClient` over the driver's `PgClient`: what `PgClient.make` cannot be told. Its pool
// waits for a free connection without end (PgPool.ts: `Pool.get`, no timeout) and shows no figures (the
// `Pool` and its `Pool.stats` stay inside PgPool.make), so the leases go through `PgClient.reserve` (the
// driver's own Connection adapter, exclusive), bounded and counted here. The same shape as the project's
// `StandbyReads.ts` router, which builds its client with `SqlClient.make` over `reserve` already.

export interface PoolFigures {
  readonly max: number
  open: number
  busy: number
  waiting: number
}

/** pg-pool's meaning of the pool timeout: a wait for a free connection longer than this is a busy database. */
const bounded = (acquire: Effect.Effect<Connection, SqlError, Scope.Scope>, figures: PoolFigures, waitMs: number) =>
  Effect.suspend(() => {
    figures.waiting++
    return acquire
  }).pipe(
    Effect.ensuring(Effect.sync(() => {
      figures.waiting--
    })),
    Effect.timeoutOrElse({
      duration: Duration.millis(waitMs),
      orElse: () =>
        Effect.fail(
          new SqlError({
            reason: new ConnectionError({
              cause: new Error("timeout exceeded when trying to connect"),
              message: `no database connection became free within ${waitMs} ms`,
              operation: "acquire"
            })
          })
        )
    }),
    // Busy from the lease until its scope closes (the statement, or the whole transaction).
    Effect.tap(() =>
      Effect.acquireRelease(
        Effect.sync(() => {
          figures.busy++
        }),
        () =>
          Effect.sync(() => {
            figures.busy--
          })
      )
    )
  )

/** PgClient's own check (not exported): a COMMIT of an aborted transaction answers ROLLBACK. */
const commit = (connection: Connection) =>
  Effect.flatMap(connection.executeRaw("COMMIT", []), (result) =>
    (result as PgConnection.Result).command === "ROLLBACK"
      ? Effect.fail(new SqlError({
        reason: new UnknownError({
          cause: new Error("COMMIT rolled back an aborted transaction"),
          message: "COMMIT rolled back an aborted transaction",
          operation: "commit"
        })
      }))
      : Effect.void)

export const makePoolClient = (pg: PgClient.PgClient, figures: PoolFigures, waitMs: number) => {
  const lease = bounded(pg.reserve, figures, waitMs)
  return SqlClient.make({
    acquirer: lease,
    transactionAcquirer: lease,
    // Shared with the driver's client, so `withTransaction` on either sees the other's open transaction.
    transactionService: pg.transactionService,
    compiler: PgClient.makeCompiler(),
    prepareTransactionControls: true,
    commit,
    releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`,
    driver: "pg",
    spanAttributes: [["db.system.name", "postgresql"]]
  })
}
