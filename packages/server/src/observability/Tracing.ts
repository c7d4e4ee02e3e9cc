import { isHealthCheck } from "@hotel/http/platform/Routes"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Layer from "effect/Layer"
import * as References from "effect/References"

/** `OTEL_EXPORTER_OTLP_ENDPOINT`: where traces go; unset, there are none. */
const EndpointConfig = Config.option(Config.NonEmptyString("OTEL_EXPORTER_OTLP_ENDPOINT"))

/**
 * Traces exported over OTLP/HTTP (JSON) when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: a server span per request
 * (with `traceparent` honoured, `http.route`, `http.response.status_code`, `request_id`), a span per service
 * call (`Service.method`) and per SQL statement. The exporter reads the other standard `OTEL_EXPORTER_OTLP_*`
 * settings itself. Unset, the tracer is off: the OpenTelemetry SDK is not even loaded, and our services make no
 * span at all (`withSpan`, persistence `database/Span.ts`).
 */
export const TracingLive = Layer.unwrap(
  Effect.gen(function*() {
    const endpoint = yield* EndpointConfig
    if (endpoint._tag === "None") return Layer.succeed(References.TracerEnabled)(false)
    const serviceName = yield* Config.String("OTEL_SERVICE_NAME").pipe(Config.withDefault("hotel"))
    const [NodeSdk, { BatchSpanProcessor }, { OTLPTraceExporter }] = yield* Effect.promise(() =>
      Promise.all([
        import("@effect/opentelemetry/NodeSdk"),
        import("@opentelemetry/sdk-trace-base"),
        import("@opentelemetry/exporter-trace-otlp-http")
      ])
    )
    return NodeSdk.layer(() => ({
      resource: { serviceName },
      spanProcessor: new BatchSpanProcessor(new OTLPTraceExporter())
    }))
  })
)

const healthCheckRequest = (request: HttpServerRequest.HttpServerRequest) => isHealthCheck(request.url)

/** The server span's name: `http.server POST`, as OpenTelemetry's HTTP conventions name it. */
const serverSpanName = (request: HttpServerRequest.HttpServerRequest) => `http.server ${request.method}`

/**
 * The HTTP server's own span per request, around `layer` (the served API), named `http.server <METHOD>`: for
 * every request but the health checks when traces are exported, for none when they are not (the server's
 * tracing step is skipped whenever the tracer is off, so it copies no URL or header into a span nobody reads).
 */
export const withServerSpans = <A, E, R>(layer: Layer.Layer<A, E, R>) =>
  layer.pipe(
    Layer.provide(Layer.mergeAll(
      Layer.succeed(HttpMiddleware.TracerDisabledWhen)(healthCheckRequest),
      Layer.succeed(HttpMiddleware.SpanNameGenerator)(serverSpanName)
    ))
  )
