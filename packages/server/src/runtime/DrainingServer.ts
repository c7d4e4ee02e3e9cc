import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Readiness } from "@hotel/http/platform/Readiness"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { HandedConnectionsLive } from "./HandedConnections.js"
import { closeInPause } from "./ListenerPause.js"
import { isServingProcess } from "./ProcessMessages.js"
import { listenFailed } from "./StartupFailures.js"
import { firstStopSignal } from "./StopSignal.js"
import { HttpDrain, makeTrackedServer } from "./TrackedServer.js"
import { mapLayerError } from "./layerError.js"
import { ApiAddressConfig } from "./NodeServer.js"
import { wholeNumber } from "./settings.js"

/**
 * `HOTEL_DRAIN_DELAY_MS`: how long a server asked to stop by SIGTERM keeps accepting and serving, not ready,
 * before it closes its listener (docs/operations.md, stopping). 0 skips it.
 */
export const DrainDelayConfig = wholeNumber(
  "HOTEL_DRAIN_DELAY_MS",
  0,
  Number.MAX_SAFE_INTEGER,
  "HOTEL_DRAIN_DELAY_MS must be a whole number of milliseconds, 0 or more"
).pipe(Config.withDefault(5000), Config.map(Duration.millis))

/** The Node HTTP server listening on `HOST:PORT` (default 127.0.0.1:3000); its drain closes the listener in a pause. */
const ListeningServerLive = Layer.unwrap(
  Effect.gen(function*() {
    const { host, port } = yield* ApiAddressConfig
    const tracked = yield* makeTrackedServer
    const stopAccepting = closeInPause(tracked.server, tracked.connections).pipe(
      Effect.andThen(Effect.logInfo("Shutting down: listener closed"))
    )
    return Layer.merge(
      NodeHttpServer.layer(() => tracked.server, { port, host }).pipe(mapLayerError(listenFailed(host, port, "PORT"))),
      Layer.succeed(HttpDrain)(tracked.drainWith(stopAccepting))
    )
  })
)

/**
 * The API's HTTP server with its `HttpDrain`: listening on `HOST:PORT` itself, or, in a process the primary
 * started (`PROCESSES` above 1), serving the connections the primary accepts there.
 */
export const DrainingServerLive = Layer.unwrap(
  Effect.sync(() => (isServingProcess() ? HandedConnectionsLive : ListeningServerLive))
)

/**
 * Drains the server when the application stops (SIGTERM/SIGINT interrupt it). The moment a signal arrives
 * the process is not ready (`GET /health/ready` is 503) and every answer says `Connection: close`; after
 * SIGTERM it serves on for the drain delay, so a balancer that checks readiness stops sending before the
 * listener closes; after SIGINT (a Ctrl-C) it closes at once. Built after the API is served, so its finalizer
 * runs first: the requests in flight finish while the router, the services and the database pool (closed
 * later, in reverse order of construction) are still there.
 */
export const DrainOnShutdownLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const { closeEachAnswer, drain } = yield* HttpDrain
    const readiness = yield* Readiness
    const delay = yield* DrainDelayConfig
    const stopping = Effect.andThen(readiness.stop, closeEachAnswer)
    const received = yield* firstStopSignal(() => stopping)
    yield* Effect.addFinalizer(() =>
      stopping.pipe(
        Effect.andThen(received),
        Effect.flatMap((signal) => drain(Option.contains(signal, "SIGTERM") ? delay : Duration.zero))
      )
    )
  })
)
