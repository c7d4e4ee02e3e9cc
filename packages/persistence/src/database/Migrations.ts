import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Migrator from "effect/sql/Migrator"
import * as PgMigrator from "@effect/sql-pg/PgMigrator"
import * as Layer from "effect/Layer"
import { migrations } from "./migrations/index.js"

/** Applies pending migrations when built. */
export const MigrationsLive = PgMigrator.layer({
  loader: Migrator.fromRecord(migrations)
}).pipe(Layer.provide(NodeContext.layer))

export const runMigrations = PgMigrator.run({ loader: Migrator.fromRecord(migrations) })
