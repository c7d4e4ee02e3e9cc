import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as SqlClient from "effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { HotelApi } from "../Api.js"
import { currentRequestId } from "../common/Envelope.js"
import { CurrentApiKey } from "../common/Security.js"
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
      // A database that does not answer (or, on a formation, no primary: the failover window) is a busy
      // database: the gateway answers 503 `database_busy`, so a balancer takes the process out of rotation.
      .handle("ready", () =>
        Effect.if(readiness.stopping, {
          onTrue: () => Effect.fail(stopping),
          onFalse: () => sql`SELECT 1`.pipe(Effect.orDie, Effect.as({ status: "ok" as const }))
        }))
  }))

const MeHandlers = HttpApiBuilder.group(HotelApi, "me", (handlers) =>
  handlers.handle("me", () =>
    Effect.flatMap(CurrentApiKey, (key) =>
      Effect.map(FiberRef.get(currentRequestId), (requestId) => ({
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
