import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import pg from "pg"
import { DatabaseUrl } from "./DatabaseUrl.js"

const DATE_OID = 1082

/** The Postgres client; DATE columns stay `YYYY-MM-DD` text because dates carry no time zone. */
export const SqlLive = Layer.unwrapEffect(
  Effect.map(DatabaseUrl, (url) =>
    PgClient.layer({
      url,
      maxConnections: 20,
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") =>
          oid === DATE_OID ? (value: string) => value : pg.types.getTypeParser(oid, format ?? "text")) as never
      }
    })
  )
)
