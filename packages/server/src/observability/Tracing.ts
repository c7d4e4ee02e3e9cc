import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * Traces exported over OTLP/HTTP (JSON) when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: a server span per request
 * (with `traceparent` honoured, `http.route`, `http.response.status_code`, `request_id`), a span per service
 * call (`Service.method`) and per SQL statement. The exporter reads the other standard `OTEL_EXPORTER_OTLP_*`
 * settings itself. Unset, the tracer is off: the OpenTelemetry SDK is not even loaded, and our services make no
 * span at all (`withSpan`, persistence `database/Span.ts`).
 */
export const TracingLive = Layer.unwrapEffect(
  Effect.gen(function*() {
    const endpoint = yield* Config.option(Config.nonEmptyString("OTEL_EXPORTER_OTLP_ENDPOINT"))
    if (endpoint._tag === "None") return Layer.setTracerEnabled(false)
    const serviceName = yield* Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("hotel"))
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
