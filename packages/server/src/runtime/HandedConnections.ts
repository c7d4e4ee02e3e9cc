import * as HttpServer from "effect/http/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as NetAddress from "effect/net/NetAddress"
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import * as Scope from "effect/Scope"
import type { IncomingMessage, ServerResponse } from "node:http"
import * as Net from "node:net"
import { atMost } from "./atMost.js"
import { pauseTimeout } from "./ListenerPause.js"
import { isMessage, isServingProcess, message, stoppingTimeout } from "./ProcessMessages.js"
import { HttpDrain, makeTrackedServer } from "./TrackedServer.js"
import { ApiAddressConfig } from "./NodeServer.js"

/**
 * How long a serving process waits, after its drain delay, for the primary to release it: the primary closes
 * its listener once every process has asked (at most `stoppingTimeout` after its own delay), within
 * `pauseTimeout`; the rest is room for a loaded machine. Past it (a primary gone or stuck) the process drains
 * anyway.
 */
const releaseTimeout = [stoppingTimeout, pauseTimeout, Duration.seconds(3)].reduce(Duration.sum)

/**
 * The address the API is reached at, which the primary listens on. A host name rather than an address (the
 * primary resolved it, not this process) is given as the unspecified address: it is only ever logged.
 */
const addressOf = (host: string, port: number): NetAddress.SocketAddress =>
  Result.getOrElse(
    NetAddress.inetAddressFromHostString(host, port),
    () => NetAddress.inetAddressUnsafe(NetAddress.ipv4Unspecified, port)
  )

const tellPrimary = (kind: "ready" | "stopping") => Effect.sync(() => process.connected && process.send?.(message(kind)))

/**
 * Tells the primary, in a process it started, that the application is up (the API, its metrics port, its
 * workers): from then on it is handed connections, and an exit is a crash to replace, not a failed start.
 */
export const announceReady = Effect.suspend(() => (isServingProcess() ? tellPrimary("ready") : Effect.void))

/**
 * A serving process's API server (`PROCESSES` above 1): it listens on nothing; it serves the connections the
 * primary accepts on `HOST:PORT` and hands over. Once its drain delay is over it asks the primary to release
 * it, and the primary answers when no connection will come any more: once another process takes the rest, or,
 * when the whole server stops, once the primary's listener has closed in a pause.
 */
export const HandedConnectionsLive = Layer.unwrap(
  Effect.gen(function*() {
    const { host, port } = yield* ApiAddressConfig
    const tracked = yield* makeTrackedServer
    // Node keeps a server's list of connections (which are idle, for a stop to close; the header and request
    // timeouts) from the moment it listens; this one never does, so it is told.
    tracked.server.emit("listening")
    const released = yield* Deferred.make<void>()
    const onMessage = (value: unknown, handle: unknown) => {
      if (isMessage(value, "connection") && handle instanceof Net.Socket) tracked.server.emit("connection", handle)
      else if (isMessage(value, "released")) Deferred.doneUnsafe(released, Effect.void)
    }
    // A primary gone sends nothing more.
    const onDisconnect = () => Deferred.doneUnsafe(released, Effect.void)
    yield* Effect.acquireRelease(
      Effect.sync(() => {
        process.on("message", onMessage)
        process.on("disconnect", onDisconnect)
      }),
      () =>
        Effect.sync(() => {
          process.off("message", onMessage)
          process.off("disconnect", onDisconnect)
        })
    )

    const server = HttpServer.make({
      address: addressOf(host, port),
      serve: (app, middleware) =>
        Effect.gen(function*() {
          // As `NodeHttpServer` serves: each request's fiber in a scope of its own under the server's.
          const scope = Scope.forkUnsafe(yield* Effect.scope, "parallel")
          const handler = yield* NodeHttpServer.makeHandler(app, { scope, middleware })
          // The tracked server listens for `checkContinue`, so Node no longer answers it by itself: continue,
          // as Node would, and serve the request.
          const continueHandler = (request: IncomingMessage, response: ServerResponse) => {
            response.writeContinue()
            handler(request, response)
          }
          yield* Effect.acquireRelease(
            Effect.sync(() => {
              tracked.server.on("request", handler)
              tracked.server.on("checkContinue", continueHandler)
            }),
            () =>
              Effect.sync(() => {
                tracked.server.off("request", handler)
                tracked.server.off("checkContinue", continueHandler)
              })
          )
        })
    })
    const stopAccepting = tellPrimary("stopping").pipe(
      Effect.andThen(atMost(releaseTimeout)(Deferred.await(released))),
      Effect.flatMap((answer) =>
        Option.isSome(answer)
          ? Effect.logInfo("Shutting down: released by the primary")
          : Effect.logWarning(`Shutdown: the primary did not release this process within ${Duration.format(releaseTimeout)}`)
      )
    )
    return Layer.mergeAll(
      Layer.succeed(HttpServer.HttpServer)(server),
      Layer.succeed(HttpDrain)(tracked.drainWith(stopAccepting)),
      NodeHttpServer.layerHttpServices
    )
  })
)
