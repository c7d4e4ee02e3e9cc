import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { HttpLive } from "@hotel/http/HttpLive"
import { EventsLive } from "@hotel/http/events/EventsLive"
import { EventPurgeLive } from "@hotel/persistence/events/EventPurge"
import { HoldSweeperLive } from "@hotel/persistence/HoldSweeper"
import { WebhookWorkerLive } from "@hotel/persistence/webhooks/WebhookDispatcher"
import { WebhookPolicy } from "@hotel/persistence/webhooks/WebhookPolicy"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer } from "node:http"

const NodeServerLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const port = yield* Config.integer("PORT").pipe(Config.withDefault(3000))
    const host = yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
    return NodeHttpServer.layer(createServer, { port, host })
  })
)

/**
 * The API on `HOST:PORT` (default 127.0.0.1:3000) and the background work of every process: the sweeper of
 * expired holds, the webhook delivery worker and the event purge; needs a migrated database's `SqlClient`.
 */
export const ServerLive = HttpLive.pipe(
  HttpServer.withLogAddress,
  Layer.provide(NodeServerLive),
  Layer.merge(HoldSweeperLive.pipe(Layer.provide(EventsLive))),
  Layer.merge(Layer.mergeAll(WebhookWorkerLive, EventPurgeLive).pipe(Layer.provide(WebhookPolicy.layer)))
)
