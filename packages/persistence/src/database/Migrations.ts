import * as Migrator from "effect/sql/Migrator"
import { migrations } from "./migrations/index.js"

/**
 * Applies the pending migrations on the application's `SqlClient`. The migrator alone: the driver's
 * `PgMigrator` adds only a schema dump (`pg_dump`), which the project does not use.
 */
export const runMigrations = Migrator.make({})({ loader: Migrator.fromRecord(migrations) })
