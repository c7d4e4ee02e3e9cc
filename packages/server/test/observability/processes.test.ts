import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as net from "node:net"
import { freePort } from "../../../persistence/test/utils/freePort.js"
import { eventually, receiver } from "../events/receiver.js"
import { holdBody, newGuest } from "../utils/booking.js"
import { request } from "../utils/http.js"
import { hotelWith, serveProcessWith } from "../utils/processes.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// `hotel serve` as a process of the built bundle (what the image runs): its log lines, its traces (to an
// OTLP/HTTP receiver on loopback), its metrics port and the one line it prints when it cannot start.

interface LogLine {
  readonly message: unknown
  readonly logLevel: string
  readonly annotations: Record<string, unknown>
}

interface OtlpSpan {
  readonly name: string
  readonly traceId: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
}

interface OtlpExport {
  readonly resourceSpans: ReadonlyArray<{ readonly scopeSpans: ReadonlyArray<{ readonly spans: ReadonlyArray<OtlpSpan> }> }>
}

const spansOf = (bodies: ReadonlyArray<string>) =>
  bodies.flatMap((body) =>
    (JSON.parse(body) as OtlpExport).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)))

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

/** A listener on 127.0.0.1 that holds a port for the scope. */
const occupiedPort = Effect.acquireRelease(
  Effect.callback<net.Server>((resume) => {
    const server = net.createServer()
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
  }),
  (server) => Effect.sync(() => server.close())
).pipe(Effect.map((server) => {
  const address = server.address()
  return typeof address === "object" && address !== null ? address.port : 0
}))

layer(TestApiLive, { timeout: "240 seconds", excludeTestServices: true })("hotel serve, observed", (it) => {
  it.effect("one JSON log line per request, health checks below info; the request traced end to end; /metrics", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const otlp = yield* receiver
      const endpoint = otlp.url.replace(/\/hook$/, "")
      const metricsPort = yield* freePort()
      const server = yield* serveProcessWith({
        LOG_FORMAT: "json",
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_BSP_SCHEDULE_DELAY: "100",
        METRICS_PORT: String(metricsPort),
        HOTEL_DB_POOL_SIZE: "7"
      })
      const guest = yield* newGuest(api)
      const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
      const res = yield* request(server.baseUrl, api.key)("POST", "/holds", {
        body: holdBody(api, guest, { check_in: "2031-10-01", check_out: "2031-10-03" }),
        headers: { "x-request-id": "client-42", traceparent: `00-${traceId}-00f067aa0ba902b7-01` }
      })
      expect(res.status, res.text).toBe(201)
      const requestId = res.headers.get("x-request-id")

      // Logs: JSON lines on stderr; the readiness checks made while starting are not at info level.
      const lines = () =>
        server.stderr().split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as LogLine)
      expect(yield* eventually(Effect.sync(() => lines().some((l) => l.annotations["request_id"] === requestId))))
        .toBe(true)
      const line = lines().find((l) => l.annotations["request_id"] === requestId)
      expect(line?.logLevel).toBe("INFO")
      expect(line?.annotations).toMatchObject({
        method: "POST",
        route: "/holds",
        status: 201,
        client_request_id: "client-42"
      })
      expect(typeof line?.annotations["duration_ms"]).toBe("number")
      expect(lines().some((l) => String(l.annotations["route"]).startsWith("/health/"))).toBe(false)

      // Traces: the server span continues the sent trace; the service call and its SQL are in it.
      const traced = () => spansOf(otlp.received.map((r) => r.body)).filter((s) => s.traceId === traceId)
      expect(yield* eventually(Effect.sync(() => traced().some((s) => s.name === "Holds.create")))).toBe(true)
      const spans = traced()
      const serverSpan = spans.find((s) => s.kind === 2)
      expect(serverSpan?.name).toBe("http.server POST")
      expect(serverSpan && attribute(serverSpan, "http.route")).toBe("/holds")
      expect(serverSpan && String(attribute(serverSpan, "http.response.status_code"))).toBe("201")
      expect(serverSpan && attribute(serverSpan, "request_id")).toBe(requestId)
      // A client span per statement, with its text (named after the database: OpenTelemetry's convention).
      const statements = spans.filter((s) => s.kind === 3 && typeof attribute(s, "db.query.text") === "string")
      expect(statements.length).toBeGreaterThan(0)
      expect(statements.every((s) => attribute(s, "db.system.name") === "postgresql")).toBe(true)
      expect(otlp.received.every((r) => r.headers["content-type"] === "application/json")).toBe(true)

      // Metrics: the process's own port, its request counted, its pool's gauges (the size it was given).
      const metrics = yield* request(`http://127.0.0.1:${metricsPort}`, null)("GET", "/metrics")
      expect(metrics.status).toBe(200)
      expect(metrics.text).toMatch(/^hotel_holds_created_total(\{[^}]*\})? 1$/m)
      expect(metrics.text).toMatch(/^http_requests_total\{[^}]*route="\/holds"[^}]*\} 1$/m)
      expect(metrics.text).toMatch(/^hotel_db_pool_max(\{[^}]*\})? 7$/m)
    }))

  it.effect("a busy port: exit 1 and one line naming the port and the way out", () =>
    Effect.gen(function*() {
      const port = yield* occupiedPort
      const result = yield* hotelWith({ PORT: String(port), HOST: "127.0.0.1" }, "serve")
      expect(result.code).toBe(1)
      expect(result.stderr.trim()).toBe(
        `port ${port} on 127.0.0.1 is already in use: stop the other process or set PORT`
      )
    }))

  it.effect("DATABASE_URL to a closed port: exit 1 and one line naming where, PostgreSQL's reason, the fix", () =>
    Effect.gen(function*() {
      const port = yield* freePort()
      const result = yield* hotelWith({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/hotel` }, "serve")
      expect(result.code).toBe(1)
      expect(result.stderr.trim()).toBe(
        `cannot connect to PostgreSQL at 127.0.0.1:${port}/hotel: connect ECONNREFUSED 127.0.0.1:${port}: check DATABASE_URL`
      )
    }))
})
