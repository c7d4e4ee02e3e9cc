import { withSpan } from "@hotel/persistence/database/Span"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Server, ServerResponse } from "node:http"
import { afterPoll, until } from "./ListenerPause.js"
import { makeNodeServer } from "./NodeServer.js"

/** How long a stop waits, once no connection comes any more, for the requests in flight before closing their connections. */
export const drainTimeout = Duration.seconds(10)

/** Stops the HTTP server gracefully: served on for `delay`, then no new connection, what is in flight answered. */
export class HttpDrain extends Context.Tag("@hotel/server/runtime/HttpDrain")<HttpDrain, {
  readonly drain: (delay: Duration.Duration) => Effect.Effect<void>
}>() {}

/** The API's Node server with what a stop needs to know: the connections it took, the requests in flight. */
export interface TrackedServer {
  readonly server: Server
  /** How many connections the server has taken so far. */
  readonly connections: () => number
  /**
   * Builds the `HttpDrain` of this server: serve on for the delay (not ready), `stopAccepting` (the moment from
   * which no connection comes), then every answer still to be written says `Connection: close` (a client sends
   * no other request on it), the requests in flight are answered (at most `drainTimeout`), and whatever
   * connection is left (the idle kept-alive ones) is closed.
   */
  readonly drainWith: (stopAccepting: Effect.Effect<void>) => HttpDrain["Type"]
}

export const makeTrackedServer = Effect.sync((): TrackedServer => {
  const server = makeNodeServer()
  const inFlight = new Set<ServerResponse>()
  let connections = 0
  let draining = false
  const closeAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader("connection", "close")
  }
  server.on("connection", () => connections++)
  // Registered before the application's handler, so it sees every request first.
  server.on("request", (_request, response: ServerResponse) => {
    inFlight.add(response)
    if (draining) closeAfter(response)
    response.once("close", () => inFlight.delete(response))
  })
  // Not before the last connection: during the delay a client keeps its connection rather than open new ones,
  // which would keep coming while the listener looks for a pause. From then on, a client's next request opens
  // a connection, which is refused, so it knows to retry elsewhere.
  const noMoreConnections = () => {
    draining = true
    inFlight.forEach(closeAfter)
  }
  // Nothing in flight at two looks 50 ms apart, so a request just sent on a kept-alive connection (answered
  // before the drain, without `Connection: close`) is seen before the connections are closed.
  const closeWhenQuiet = until(Effect.suspend(() => {
    if (inFlight.size > 0) return Effect.as(Effect.sleep("25 millis"), false)
    return Effect.andThen(
      Effect.sleep("50 millis"),
      afterPoll(() => {
        const quiet = inFlight.size === 0
        if (quiet) server.closeAllConnections()
        return quiet
      })
    )
  }))
  const drainWith = (stopAccepting: Effect.Effect<void>): HttpDrain["Type"] => ({
    drain: (delay) =>
      Effect.gen(function*() {
        if (Duration.greaterThan(delay, Duration.zero)) {
          yield* Effect.logInfo(`Stopping: not ready; serving ${Duration.format(delay)} more before taking no new connection`)
          yield* Effect.sleep(delay)
        }
        yield* stopAccepting
        noMoreConnections()
        yield* Effect.logInfo(`Shutting down: no new connection; waiting for ${inFlight.size} request(s) in flight`)
        if (Option.isNone(yield* Effect.timeoutOption(closeWhenQuiet, drainTimeout))) {
          yield* Effect.logWarning(`Shutdown: ${inFlight.size} request(s) cut after ${Duration.format(drainTimeout)}`)
          server.closeAllConnections()
        }
      }).pipe(withSpan("HttpDrain.drain"))
  })
  return { server, connections: () => connections, drainWith }
})
