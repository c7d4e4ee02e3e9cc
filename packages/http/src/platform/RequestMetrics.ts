import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
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

/**
 * Counts one answered request and records its latency. Read off the response, so the steps that refuse
 * (rate limit) or replay (idempotency) need not know about metrics.
 */
export const recordRequest = (
  route: string,
  method: string,
  response: HttpServerResponse.HttpServerResponse,
  millis: number
) =>
  Effect.all([
    Metric.increment(Metric.taggedWithLabels(requests, [
      MetricLabel.make("route", route),
      MetricLabel.make("method", method),
      MetricLabel.make("status", String(response.status))
    ])),
    Metric.update(Metric.tagged(duration, "route", route), millis / 1000),
    response.status === 429 ? Metric.increment(rateLimited) : Effect.void,
    response.headers["idempotent-replayed"] === "true" ? Metric.increment(idempotentReplays) : Effect.void
  ], { discard: true })
