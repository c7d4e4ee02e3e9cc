import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { createServer, type ServerResponse } from "node:http"
import { listenFailed } from "./StartupFailures.js"
import * as Net from "node:net"
import { answerUnparsableRequests } from "@hotel/http/platform/UnparsableRequests"
import { withSpan } from "@hotel/persistence/database/Span"

/** How long a shutdown waits for the requests in flight before closing their connections. */
export const drainTimeout = Duration.seconds(10)

/**
 * The most a request line and its headers may take. Node's default (16 KiB) answered a long path with a
 * bodiless 431 before the router saw it; a path the API does not serve must be 404 `unknown_route` whatever
 * its length, so the bound is the body's (1 MiB): one request can hold no more of the process either way.
 */
export const maxHeaderSize = 1024 * 1024

/** Stops the HTTP server gracefully: no new connection, the requests in flight answered, then closed. */
export class HttpDrain extends Context.Tag("@hotel/server/runtime/HttpDrain")<HttpDrain, {
  readonly drain: Effect.Effect<void>
}>() {}

/**
 * A Node server that knows its requests in flight. Draining closes the listening socket (a new connection
 * is refused, never accepted and dropped), marks every answer still to be written `Connection: close` (so
 * a client sends no other request on it), waits for the requests in flight up to `drainTimeout`, then
 * closes whatever connection is left.
 */
const makeTrackedServer = Effect.sync(() => {
  const server = createServer({ maxHeaderSize })
  answerUnparsableRequests(server)
  const inFlight = new Set<ServerResponse>()
  let draining = false
  const closeAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader("connection", "close")
  }
  // Registered before the application's handler, so it sees every request first.
  server.on("request", (_request, response: ServerResponse) => {
    inFlight.add(response)
    if (draining) closeAfter(response)
    response.once("close", () => inFlight.delete(response))
  })
  // Quiet: nothing in flight twice in a row, so a request just sent on a kept-alive connection (answered
  // before the drain, without `Connection: close`) is seen before the connections are closed.
  const quiet = Effect.sync(() => inFlight.size === 0).pipe(
    Effect.zipWith(Effect.sleep("50 millis").pipe(Effect.zipRight(Effect.sync(() => inFlight.size === 0))), (a, b) => a && b),
    Effect.repeat({ schedule: Schedule.spaced("25 millis"), until: (done) => done })
  )
  const drain = Effect.gen(function*() {
    draining = true
    inFlight.forEach(closeAfter)
    // `net.Server#close` stops listening only; `http.Server#close` would also drop the idle kept-alive
    // connections, on which a client may have just sent its next request.
    if (server.listening) Net.Server.prototype.close.call(server)
    yield* Effect.logInfo(`Shutting down: waiting for ${inFlight.size} request(s) in flight`)
    const settled = yield* Effect.timeoutOption(quiet, drainTimeout)
    if (settled._tag === "None") yield* Effect.logWarning(`Shutdown: ${inFlight.size} request(s) cut after 10 s`)
    server.closeAllConnections()
  }).pipe(withSpan("HttpDrain.drain"))
  return { server, drain }
})

/** The Node HTTP server on `HOST:PORT` (default 127.0.0.1:3000), with its `HttpDrain`. */
export const DrainingServerLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const port = yield* Config.integer("PORT").pipe(Config.withDefault(3000))
    const host = yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
    const { drain, server } = yield* makeTrackedServer
    return Layer.merge(
      NodeHttpServer.layer(() => server, { port, host }).pipe(Layer.mapError(listenFailed(host, port, "PORT"))),
      Layer.succeed(HttpDrain, { drain })
    )
  })
)

/**
 * Drains the server when the application stops (SIGTERM/SIGINT interrupt it). Built after the API is
 * served, so its finalizer runs first: the requests in flight finish while the router, the services and
 * the database pool (closed later, in reverse order of construction) are all still there.
 */
export const DrainOnShutdownLive = Layer.scopedDiscard(
  Effect.flatMap(HttpDrain, ({ drain }) => Effect.addFinalizer(() => drain))
)
