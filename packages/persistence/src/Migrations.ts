import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Migrator from "@effect/sql/Migrator"
import * as PgMigrator from "@effect/sql-pg/PgMigrator"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { migrations } from "./migrations/index.js"

/** Applies pending migrations when built. */
export const MigrationsLive = PgMigrator.layer({
  loader: Migrator.fromRecord(migrations)
}).pipe(Layer.provide(NodeContext.layer))

/**
 * Applies pending migrations. A migration may take longer than any request may (an index on a large table),
 * so its transaction lifts the connection's statement and lock timeouts (`Sql.ts`).
 */
export const runMigrations = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.withTransaction(
    sql`SET LOCAL statement_timeout = 0`.pipe(
      Effect.zipRight(sql`SET LOCAL lock_timeout = 0`),
      Effect.zipRight(PgMigrator.run({ loader: Migrator.fromRecord(migrations) }))
    )
  ))
