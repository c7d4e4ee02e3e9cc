import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as SqlClient from "effect/sql/SqlClient"
import { orOnStandby } from "@hotel/persistence/database/StandbyReads"
import * as Effect from "effect/Effect"
import { HotelApi } from "@hotel/api/Api"
import { CurrentRequestId } from "@hotel/api/common/Envelope"
import { CurrentApiKey } from "@hotel/api/common/Security"
import * as Layer from "effect/Layer"
import { ShuttingDown } from "@hotel/domain"
import { Readiness } from "./Readiness.js"

const HealthHandlers = HttpApiBuilder.group(HotelApi, "health", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const readiness = yield* Readiness
    const stopping = new ShuttingDown({ message: "The server is stopping; send requests to another instance" })
    return handlers
      .handle("live", () => Effect.succeed({ status: "ok" as const }))
      // A database that does not answer is a busy database: the gateway answers 503 `database_busy`, so a
      // balancer takes the process out of rotation. On a formation with a read URL, a process whose primary is
      // gone (the failover window) is still ready while its standby answers: it serves the reads a standby
      // serves, and answers its writes 503 itself, which is all a balancer could do for them anyway.
      .handle("ready", () =>
        Effect.flatMap(readiness.stopping, (isStopping) =>
          isStopping
            ? Effect.fail(stopping)
            : sql`SELECT 1`.pipe(orOnStandby(sql`SELECT 1`), Effect.orDie, Effect.as({ status: "ok" as const }))))
  }))

const MeHandlers = HttpApiBuilder.group(HotelApi, "me", (handlers) =>
  handlers.handle("me", () =>
    Effect.flatMap(CurrentApiKey, (key) =>
      Effect.map(Effect.service(CurrentRequestId), (requestId) => ({
        api_key_id: key.id,
        property_id: key.propertyId,
        scopes: key.scopes,
        context: key.context,
        label: key.label,
        expires_at: key.expiresAt === null ? null : key.expiresAt.toISOString(),
        request_id: requestId
      })))))

/** The `platform` feature: its handlers (the database comes from outside). */
export const HttpPlatformLive = Layer.mergeAll(
  HealthHandlers,
  MeHandlers
)
