import { DatabaseUrl } from "@hotel/persistence/DatabaseUrl"
import { runMigrations } from "@hotel/persistence/Migrations"
import { SqlLive } from "@hotel/persistence/Sql"
import * as Layer from "effect/Layer"

/** `DatabaseUrl`'s database (or the embedded server: the running one, or one started for the process). */
export const DatabaseLive = SqlLive.pipe(Layer.provide(DatabaseUrl.fromEnvOrEmbedded))

/** The database with every migration applied. */
export const MigratedDatabaseLive = Layer.effectDiscard(runMigrations).pipe(Layer.provideMerge(DatabaseLive))
