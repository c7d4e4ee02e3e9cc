import { answerCutRequest } from "@hotel/http/platform/CutRequests"
import { withSpan } from "@hotel/persistence/database/Span"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { atMost } from "./atMost.js"
import { afterPoll, until } from "./ListenerPause.js"
import { makeNodeServer } from "./NodeServer.js"

/**
 * How long a stop waits, once no connection comes any more, for the requests in flight; then it cuts what is
 * left, whatever its clients do (a body trickling in, an answer read slowly).
 */
export const drainTimeout = Duration.seconds(10)

/** Stops the HTTP server gracefully: served on for `delay`, then no new connection, what is in flight answered. */
export class HttpDrain extends Context.Service<HttpDrain, {
  /**
   * From now on every answer says `Connection: close`, so a client opens its next connection afresh (through a
   * balancer, to another instance). Taken the moment a stop begins, with the readiness check.
   */
  readonly closeEachAnswer: Effect.Effect<void>
  readonly drain: (delay: Duration.Duration) => Effect.Effect<void>
}>()("@hotel/server/runtime/HttpDrain") {}

/** The API's Node server with what a stop needs to know: the connections it took, the requests in flight. */
export interface TrackedServer {
  readonly server: Server
  /** How many connections the server has taken so far. */
  readonly connections: () => number
  /**
   * Builds the `HttpDrain` of this server: every answer says `Connection: close`, serve on for the delay (not
   * ready), `stopAccepting` (bounded itself: from then on no connection comes), then the idle connections are
   * closed and the requests in flight answered, for at most `drainTimeout`; what is left then is cut.
   */
  readonly drainWith: (stopAccepting: Effect.Effect<void>) => HttpDrain["Service"]
}

export const makeTrackedServer = Effect.sync((): TrackedServer => {
  const server = makeNodeServer()
  const inFlight = new Map<ServerResponse, IncomingMessage>()
  const open = new Set<Socket>()
  let connections = 0
  let closing = false
  const closeAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader("connection", "close")
  }
  server.on("connection", (socket: Socket) => {
    connections++
    open.add(socket)
    socket.once("close", () => open.delete(socket))
  })
  // Registered before the application's handler, so it sees every request first. A request that expects
  // `100 Continue` comes as `checkContinue` instead of `request` (the HTTP server answers both).
  const track = (request: IncomingMessage, response: ServerResponse) => {
    inFlight.set(response, request)
    if (closing) closeAfter(response)
    response.once("close", () => inFlight.delete(response))
  }
  server.on("request", track)
  server.on("checkContinue", track)
  const closeEachAnswer = Effect.sync(() => {
    closing = true
    inFlight.forEach((_, response) => closeAfter(response))
  })
  // Idle connections (kept alive since an answer given before the stop, which did not say `Connection: close`)
  // are closed every 50 ms, right after a poll took in what the kernel held, so a request a client has just
  // sent on one is read first, and its connection is no longer idle. A connection just accepted, whose request
  // has not arrived, is not idle for Node; the others close after their answer, which says `Connection: close`.
  const allClosed = until(Effect.suspend(() =>
    open.size === 0 ? Effect.succeed(true) : Effect.andThen(
      Effect.sleep("50 millis"),
      afterPoll(() => {
        server.closeIdleConnections()
        return false
      })
    )
  ))
  // Past the bound: a request whose body has arrived and which is not answered yet is answered 503 (its
  // connection closes after it); every other connection is closed (a body still arriving, an answer being
  // written to a client that reads it slowly, a connection that sent nothing).
  const cut = Effect.suspend(() => {
    const answered = new Set<Socket>()
    for (const [response, request] of inFlight) {
      if (response.socket !== null && !response.headersSent && request.complete) {
        answered.add(response.socket)
        answerCutRequest(request, response)
      }
    }
    const closed = [...open].filter((socket) => !answered.has(socket))
    closed.forEach((socket) => socket.destroy())
    return Effect.logWarning(
      `Shutdown: ${inFlight.size} request(s) cut after ${Duration.format(drainTimeout)}: ${answered.size} answered ` +
        `503 shutting_down, ${closed.length} connection(s) closed`
    )
  })
  const drainWith = (stopAccepting: Effect.Effect<void>): HttpDrain["Service"] => ({
    closeEachAnswer,
    drain: (delay) =>
      Effect.gen(function*() {
        yield* closeEachAnswer
        if (Duration.isGreaterThan(delay, Duration.zero)) {
          yield* Effect.logInfo(`Stopping: not ready; serving ${Duration.format(delay)} more before taking no new connection`)
          yield* Effect.sleep(delay)
        }
        yield* stopAccepting
        yield* Effect.logInfo(`Shutting down: no new connection; waiting for ${inFlight.size} request(s) in flight`)
        if (Option.isNone(yield* atMost(drainTimeout)(allClosed))) yield* cut
      }).pipe(withSpan("HttpDrain.drain"))
  })
  return { server, connections: () => connections, drainWith }
})
