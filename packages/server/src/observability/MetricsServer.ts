import * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import { createServer } from "node:http"
import { listenFailed } from "../runtime/StartupFailures.js"
import { updatePoolGauges } from "./PoolMetrics.js"
import { contentType, render } from "./Prometheus.js"

/** `GET /metrics`: every metric of the process in the Prometheus text format, the pool's as of the scrape. */
export const metricsApp = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/metrics",
    Effect.andThen(
      updatePoolGauges,
      Effect.map(Metric.snapshot, (snapshot) => HttpServerResponse.text(render(snapshot), { contentType }))
    )
  )
)

/** The metrics endpoint on its own `host:port`; a scrape is neither traced nor logged. */
export const metricsServer = (port: number, host: string) =>
  HttpServer.serve(metricsApp).pipe(
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provide(
      NodeHttpServer.layer(createServer, { port, host }).pipe(Layer.mapError(listenFailed(host, port, "METRICS_PORT")))
    )
  )

/**
 * `METRICS_PORT` (off when unset) on `METRICS_HOST` (default `HOST`, default 127.0.0.1). A port of its own
 * rather than the API's: a scraper needs no API key, scrapes are not rate limited, and the operator decides
 * who reaches it (bind it to a private interface) without touching the API's exposure.
 */
export const MetricsServerLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const port = yield* Config.option(Config.integer("METRICS_PORT"))
    if (port._tag === "None") return Layer.empty
    const host = yield* Config.string("METRICS_HOST").pipe(
      Config.orElse(() => Config.string("HOST")),
      Config.withDefault("127.0.0.1")
    )
    return metricsServer(port.value, host)
  })
)
