import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"

// What an operator watches of the HTTP traffic: requests by route and status, latency by route.

const requests = Metric.counter("http_requests_total", {
  description: "HTTP requests answered, by route template, method and status",
  incremental: true
})

// 1 ms to about 4 s, doubling: a quote or a hold takes milliseconds, a struggling database seconds.
const duration = Metric.histogram("http_request_duration_seconds", {
  description: "HTTP request latency by route template",
  boundaries: Metric.exponentialBoundaries({ start: 0.001, factor: 2, count: 13 })
})

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
 * (idempotency) need not know about metrics. Each (route, method, status) keeps its series' metrics, made once:
 * the routes are the router's templates and `unmatched`, the methods those Node's parser accepts, the
 * statuses ours, so they stay few.
 */
export const makeRequestMetrics: Effect.Effect<RecordRequest> = Effect.sync(() => {
  const series = new Map<string, { readonly count: typeof requests; readonly latency: typeof duration }>()
  const seriesOf = (route: string, method: string, status: number) => {
    const id = `${route} ${method} ${status}`
    const known = series.get(id)
    if (known !== undefined) return known
    const made = {
      count: Metric.withAttributes(requests, { route, method, status: String(status) }),
      latency: Metric.withAttributes(duration, { route })
    }
    series.set(id, made)
    return made
  }
  return (route, method, response, millis) =>
    Effect.withFiber((fiber) => {
      const { count, latency } = seriesOf(route, method, response.status)
      count.updateUnsafe(1, fiber.context)
      latency.updateUnsafe(millis / 1000, fiber.context)
      if (response.status === 429) rateLimited.updateUnsafe(1, fiber.context)
      if (response.headers["idempotent-replayed"] === "true") idempotentReplays.updateUnsafe(1, fiber.context)
      return Effect.void
    })
})
