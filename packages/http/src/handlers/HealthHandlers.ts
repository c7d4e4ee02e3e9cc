import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"

export const HealthHandlers = HttpApiBuilder.group(HotelApi, "health", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return handlers
      .handle("live", () => Effect.succeed({ status: "ok" as const }))
      // A database that does not answer is a defect: the gateway turns it into a 500 envelope.
      .handle("ready", () => sql`SELECT 1`.pipe(Effect.orDie, Effect.as({ status: "ok" as const })))
  }))
