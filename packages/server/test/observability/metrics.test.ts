import { expect, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { freePort } from "../../../persistence/test/utils/freePort.js"
import { metricsServer } from "../../src/observability/MetricsServer.js"
import { hold, holdBody, lastSuite, newGuest, postHold } from "../utils/booking.js"
import { expectError } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// GET /metrics on the metrics port (METRICS_PORT): the API in-process and its metrics server on a free port.

class MetricsUrl extends Context.Service<MetricsUrl, string>()("test/MetricsUrl") {}

const MetricsPort = Layer.unwrap(Effect.map(freePort(), (port) =>
  Layer.merge(metricsServer(port, "127.0.0.1"), Layer.succeed(MetricsUrl, `http://127.0.0.1:${port}/metrics`))))

const scrape = Effect.flatMap(MetricsUrl, (url) =>
  Effect.promise(async () => {
    const res = await fetch(url)
    return { status: res.status, type: res.headers.get("content-type"), text: await res.text() }
  }))

/** The value of the sample `line` (name with labels), or undefined. */
const sample = (text: string, line: string) => {
  const found = text.split("\n").find((l) => l.startsWith(`${line} `))
  return found === undefined ? undefined : Number(found.slice(line.length + 1))
}

// The metrics server sees the API's services, as in the application: the pool's gauges come from its database.
layer(MetricsPort.pipe(Layer.provideMerge(TestApiLive)), { excludeTestServices: true })("GET /metrics", (it) => {
  it.effect("after a hold and a 409 no_availability: requests by route and status, latency, holds, refusals", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      // The metrics are the process's: other test files in this worker count too, so this test counts what
      // its own requests add.
      const before = (yield* scrape).text
      const added = (text: string, line: string) => (sample(text, line) ?? 0) - (sample(before, line) ?? 0)
      const guest = yield* newGuest(api)
      const suite = lastSuite(api)
      const stay = { ...suite, check_in: "2031-09-01", check_out: "2031-09-03" }
      yield* hold(api, holdBody(api, guest, stay))
      expectError(yield* postHold(api, holdBody(api, guest, stay)), 409, "conflict", "no_availability")
      // A keyed hold sent twice: placed once, the second answer is the stored one.
      const keyed = holdBody(api, guest, { check_in: "2031-09-10", check_out: "2031-09-12" })
      yield* hold(api, keyed, { headers: { "idempotency-key": "metrics-1" } })
      const replayed = yield* postHold(api, keyed, { headers: { "idempotency-key": "metrics-1" } })

      const metrics = yield* scrape
      expect(metrics.status).toBe(200)
      expect(metrics.type).toContain("text/plain; version=0.0.4")
      const text = metrics.text
      expect(text).toContain("# TYPE http_requests_total counter")
      expect(added(text, `http_requests_total{route="/holds",method="POST",status="201"}`)).toBe(3)
      expect(added(text, `http_requests_total{route="/holds",method="POST",status="409"}`)).toBe(1)
      expect(text).toContain("# TYPE http_request_duration_seconds histogram")
      expect(added(text, `http_request_duration_seconds_count{route="/holds"}`)).toBe(4)
      expect(added(text, `http_request_duration_seconds_bucket{route="/holds",le="+Inf"}`)).toBe(4)
      expect(added(text, "hotel_holds_created_total")).toBe(2)
      expect(added(text, "hotel_no_availability_total")).toBe(1)
      expect(replayed.headers.get("idempotent-replayed")).toBe("true")
      expect(added(text, "http_idempotent_replays_total")).toBe(1)
    }))

  it.effect("the database pool's gauges as of the scrape: its size, busy and idle connections, waiting requests", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      // Connections in use while the scrape is read: a transaction holds one until the scrape has answered.
      const text = yield* api.sql.withTransaction(Effect.andThen(api.sql`SELECT 1`, Effect.map(scrape, (m) => m.text)))
      expect(text).toContain("# TYPE hotel_db_pool_connections gauge")
      expect(sample(text, "hotel_db_pool_max")).toBe(20)
      expect(sample(text, `hotel_db_pool_connections{state="busy"}`)).toBeGreaterThanOrEqual(1)
      expect(sample(text, `hotel_db_pool_connections{state="idle"}`)).toBeGreaterThanOrEqual(0)
      expect(sample(text, "hotel_db_pool_waiting")).toBe(0)
      // Released, the connection is idle at the next scrape.
      const after = (yield* scrape).text
      expect(sample(after, `hotel_db_pool_connections{state="busy"}`)).toBe(0)
      expect(sample(after, `hotel_db_pool_connections{state="idle"}`)).toBeGreaterThanOrEqual(1)
    }))
})
