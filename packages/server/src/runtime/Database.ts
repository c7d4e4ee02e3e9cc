import { DatabaseUrl } from "@hotel/persistence/database/DatabaseUrl"
import { runMigrations } from "@hotel/persistence/database/Migrations"
import { SqlLive } from "@hotel/persistence/database/Sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mapLayerError } from "./layerError.js"
import { databaseUnreachable, migrationFailed } from "./StartupFailures.js"

/** The client of `DatabaseUrl`'s database; not reaching it is `DatabaseUnreachable` (where, and why). */
const ConnectedSqlLive = Layer.unwrap(Effect.map(DatabaseUrl, (url) => SqlLive.pipe(mapLayerError(databaseUnreachable(url)))))

/** `DatabaseUrl`'s database (or the embedded server: the running one, or one started for the process). */
export const DatabaseLive = ConnectedSqlLive.pipe(Layer.provide(DatabaseUrl.fromEnvOrEmbedded))

/** The database with every migration applied; a failed migration is `MigrationFailed` (which, and why). */
export const MigratedDatabaseLive = Layer.effectDiscard(migrationFailed(runMigrations)).pipe(
  Layer.provideMerge(DatabaseLive)
)
