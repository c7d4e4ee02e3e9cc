import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import { constTrue } from "effect/Function"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpServer from "effect/http/HttpServer"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Layer from "effect/Layer"
import * as PrometheusMetrics from "effect/observability/PrometheusMetrics"
import { createServer } from "node:http"
import { mapLayerError } from "../runtime/layerError.js"
import { listenFailed } from "../runtime/StartupFailures.js"
import { updatePoolGauges } from "./PoolMetrics.js"

/** The Prometheus text exposition format (version 0.0.4). */
const contentType = "text/plain; version=0.0.4; charset=utf-8"

/**
 * `GET /metrics`: every metric of the process in the Prometheus text format (Effect's own rendering of its
 * registry), the pool's as of the scrape; any other request is 404.
 */
export const metricsApp = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (request.method !== "GET" || request.url.split("?")[0] !== "/metrics") return HttpServerResponse.empty({ status: 404 })
  yield* updatePoolGauges
  return HttpServerResponse.text(yield* PrometheusMetrics.format(), { contentType })
})

/** The metrics endpoint on its own `host:port`; a scrape is neither traced nor logged. */
export const metricsServer = (port: number, host: string) =>
  HttpServer.serve(metricsApp).pipe(
    Layer.provide(Layer.succeed(HttpMiddleware.TracerDisabledWhen)(constTrue)),
    Layer.provide(
      NodeHttpServer.layer(createServer, { port, host }).pipe(mapLayerError(listenFailed(host, port, "METRICS_PORT")))
    )
  )

/**
 * `METRICS_PORT` (off when unset) on `METRICS_HOST` (default `HOST`, default 127.0.0.1). A port of its own
 * rather than the API's: a scraper needs no API key, scrapes are not rate limited, and the operator decides
 * who reaches it (bind it to a private interface) without touching the API's exposure.
 */
export const MetricsServerLive = Layer.unwrap(
  Effect.gen(function*() {
    const port = yield* Config.option(Config.Int("METRICS_PORT"))
    if (port._tag === "None") return Layer.empty
    const host = yield* Config.String("METRICS_HOST").pipe(
      Config.orElse(() => Config.String("HOST")),
      Config.withDefault("127.0.0.1")
    )
    return metricsServer(port.value, host)
  })
)
