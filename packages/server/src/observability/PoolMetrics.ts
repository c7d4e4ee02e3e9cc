import { DatabasePool } from "@hotel/persistence/database/DatabasePool"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"

// The database pool's gauges, set from the pool when the metrics are scraped (not sampled between scrapes).

const connections = Metric.gauge("hotel_db_pool_connections", {
  description: "Connections of the database pool by state (busy: lent to a request or job)"
})
const busy = connections.pipe(Metric.withAttributes({ state: "busy" }))
const idle = connections.pipe(Metric.withAttributes({ state: "idle" }))
const waiting = Metric.gauge("hotel_db_pool_waiting", {
  description: "Requests waiting for a database connection"
})
const size = Metric.gauge("hotel_db_pool_max", { description: "The database pool's size (HOTEL_DB_POOL_SIZE)" })

/** Sets the gauges from the pool, when the process has one (a metrics server alone has none). */
export const updatePoolGauges = Effect.flatMap(Effect.serviceOption(DatabasePool), (pool) =>
  Option.match(pool, {
    onNone: () => Effect.void,
    onSome: ({ stats }) =>
      Effect.flatMap(stats, (now) =>
        Effect.all([
          Metric.update(busy, now.open - now.idle),
          Metric.update(idle, now.idle),
          Metric.update(waiting, now.waiting),
          Metric.update(size, now.max)
        ], { discard: true }))
  }))
