import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { EmbeddedPostgres } from "./EmbeddedPostgres.js"

/** Where the database is: `DATABASE_URL`, or the embedded server under the data directory. */
export class DatabaseUrl extends Context.Service<DatabaseUrl, Redacted.Redacted>()("@hotel/persistence/database/DatabaseUrl") {
  static readonly make = (url: string) => Layer.succeed(DatabaseUrl, Redacted.make(url))

  /**
   * `DATABASE_URL` when set; otherwise the embedded server (started for this scope unless already running;
   * `HOTEL_DATA_DIR`, `EMBEDDED_PG_PORT`, `HOTEL_CACHE_DIR`). Dies with an `EmbeddedPostgresError` when it
   * cannot start.
   */
  static readonly fromEnvOrEmbedded = Layer.effect(
    DatabaseUrl,
    Effect.gen(function*() {
      const url = yield* Config.option(Config.Redacted("DATABASE_URL"))
      if (Option.isSome(url) && Redacted.value(url.value).length > 0) return url.value
      const dataDir = yield* Config.String("HOTEL_DATA_DIR").pipe(Config.withDefault(".data"))
      const port = yield* Config.Int("EMBEDDED_PG_PORT").pipe(Config.withDefault(54329))
      const cacheDir = yield* Config.option(Config.String("HOTEL_CACHE_DIR"))
      const embedded = yield* EmbeddedPostgres.acquire({
        dataDir,
        port,
        database: "hotel",
        ...(Option.isSome(cacheDir) ? { cacheDir: cacheDir.value } : {})
      })
      return Redacted.make(embedded.url)
    }).pipe(
      // A defect, so every layer above keeps its type; commands report it as one paragraph (the error's
      // `describeEmbeddedFailure`).
      Effect.orDie
    )
  )
}
