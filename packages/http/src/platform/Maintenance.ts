import { MaintenanceMode } from "@hotel/domain"
import { MaintenanceRepository, type MaintenanceWindow } from "@hotel/persistence/platform/MaintenanceRepository"
import { makeTtlCache } from "@hotel/persistence/platform/TtlCache"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/**
 * How long a process trusts the window it read: `hotel maintenance start` / `stop` reach every process
 * within this (plus one query).
 */
export const windowCacheTtl = Duration.millis(750)

/** `Retry-After` when the operator gave no end, or the end has passed and maintenance still runs. */
export const defaultRetryAfterSeconds = 60

/** The health checks answer during maintenance; everything else, unknown routes too, is 503. */
const exempt = new Set(["/health/live", "/health/ready"])

const isExempt = (route: Option.Option<{ readonly path: string }>): boolean =>
  Option.exists(route, ({ path }) => exempt.has(path))

/** `Retry-After` in whole seconds: until `estimated_end` when it is ahead, 60 otherwise. */
export const retryAfterSeconds = (window: MaintenanceWindow, now: number): number =>
  window.estimatedEnd !== null && window.estimatedEnd.getTime() > now
    ? Math.max(1, Math.ceil((window.estimatedEnd.getTime() - now) / 1000))
    : defaultRetryAfterSeconds

/** A request refused for maintenance: the error and the `Retry-After` its answer carries. */
export interface MaintenanceRefusal {
  readonly error: MaintenanceMode
  readonly retryAfterSeconds: number
}

/**
 * The first step, before routing (the route the router would take only tells whether it is a health
 * check): during a maintenance window every request but the health checks is 503 `maintenance_mode`, with
 * `Retry-After` and, when the operator set one, `estimated_end`. The window is read from the database at most
 * once per `windowCacheTtl` per process (a failed read is not cached: the next request reads again, so a
 * database that is back is seen at once rather than a cache lifetime later).
 */
export const makeMaintenanceCheck = Effect.gen(function*() {
  const repository = yield* MaintenanceRepository
  const cached = yield* makeTtlCache(windowCacheTtl, () => repository.current())
  const current = cached("window")
  const refuse = (window: MaintenanceWindow) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.fail<MaintenanceRefusal>({
        retryAfterSeconds: retryAfterSeconds(window, now),
        error: new MaintenanceMode({
          message: window.estimatedEnd === null
            ? "The platform is in a maintenance window; retry later"
            : `The platform is in a maintenance window until about ${window.estimatedEnd.toISOString()}`,
          ...(window.estimatedEnd !== null ? { estimated_end: window.estimatedEnd.toISOString() } : {})
        })
      }))
  return (route: Option.Option<{ readonly path: string }>): Effect.Effect<void, MaintenanceRefusal> =>
    isExempt(route) ? Effect.void : Effect.flatMap(current, (window) => window.active ? refuse(window) : Effect.void)
})
