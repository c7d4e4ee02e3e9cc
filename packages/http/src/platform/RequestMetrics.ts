import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as MetricBoundaries from "effect/MetricBoundaries"
import * as MetricLabel from "effect/MetricLabel"

// What an operator watches of the HTTP traffic: requests by route and status, latency by route.

const requests = Metric.counter("http_requests_total", {
  description: "HTTP requests answered, by route template, method and status",
  incremental: true
})

// 1 ms to about 4 s, doubling: a quote or a hold takes milliseconds, a struggling database seconds.
const duration = Metric.histogram(
  "http_request_duration_seconds",
  MetricBoundaries.exponential({ start: 0.001, factor: 2, count: 13 }),
  "HTTP request latency by route template"
)

const rateLimited = Metric.counter("http_rate_limited_total", {
  description: "Requests refused with 429 (a key's rate limit, or failed authentications from one address)",
  incremental: true
})

const idempotentReplays = Metric.counter("http_idempotent_replays_total", {
  description: "Requests answered with the stored response of their Idempotency-Key",
  incremental: true
})

/** Counts one answered request and records its latency (see `makeRequestMetrics`). */
export type RecordRequest = (
  route: string,
  method: string,
  response: HttpServerResponse.HttpServerResponse,
  millis: number
) => Effect.Effect<void>

/**
 * The recorder of answered requests. Read off the response, so the steps that refuse (rate limit) or replay
 * (idempotency) need not know about metrics. Each (route, method, status) keeps one label list: a metric
 * finds its series by the identity of the list it is given, so a list made afresh per request would look the
 * series up by hashing its key on every request. The routes are the router's templates and `unmatched`, the
 * methods those Node's parser accepts, the statuses ours: the lists stay few.
 */
export const makeRequestMetrics: Effect.Effect<RecordRequest> = Effect.sync(() => {
  const labels = new Map<string, { readonly count: ReadonlyArray<MetricLabel.MetricLabel>; readonly route: ReadonlyArray<MetricLabel.MetricLabel> }>()
  const labelsOf = (route: string, method: string, status: number) => {
    const id = `${route} ${method} ${status}`
    const known = labels.get(id)
    if (known !== undefined) return known
    const made = {
      count: [MetricLabel.make("route", route), MetricLabel.make("method", method), MetricLabel.make("status", String(status))],
      route: [MetricLabel.make("route", route)]
    }
    labels.set(id, made)
    return made
  }
  return (route, method, response, millis) =>
    Effect.sync(() => {
      const { count, route: byRoute } = labelsOf(route, method, response.status)
      requests.unsafeUpdate(1, count)
      duration.unsafeUpdate(millis / 1000, byRoute)
      if (response.status === 429) rateLimited.unsafeUpdate(1, [])
      if (response.headers["idempotent-replayed"] === "true") idempotentReplays.unsafeUpdate(1, [])
    })
})
