import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import type { Connection } from "effect/sql/SqlConnection"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import type { PoolStats } from "./DatabasePool.js"
import type { DriverPool } from "./DriverPool.js"

// A connection of the driver's pool, lent for one statement or one transaction, with what the driver's pool
// does not do: its wait for a free connection waits without end, and it shows no figures. So every lease
// goes through here, bounded (`HOTEL_DB_POOL_TIMEOUT_MS`) and counted.

/**
 * No connection became free within the pool timeout: a primary that is busy, not gone (503, and no standby
 * takes over for it).
 */
export class PoolWaitTimeout extends Error {
  constructor(readonly waitMs: number) {
    super(`no database connection became free within ${waitMs} ms`)
  }
}

/** The leases of one pool now. */
export interface LeaseFigures {
  /** Lent out: from the lease until its statement or transaction ends. */
  busy: number
  /** Waiting for a free connection. */
  waiting: number
}

/** `acquire` (the driver's exclusive `reserve`) bounded by `waitMs` and counted in `figures`. */
export const boundedLease = (
  acquire: Effect.Effect<Connection, SqlError, Scope.Scope>,
  waitMs: number,
  figures: LeaseFigures
): Effect.Effect<Connection, SqlError, Scope.Scope> =>
  Effect.suspend(() => {
    figures.waiting++
    return acquire
  }).pipe(
    Effect.ensuring(Effect.sync(() => {
      figures.waiting--
    })),
    Effect.timeoutOrElse({
      duration: Duration.millis(waitMs),
      orElse: () =>
        Effect.fail(
          new SqlError({
            reason: new UnknownError({
              cause: new PoolWaitTimeout(waitMs),
              message: "Timeout exceeded when trying to connect",
              operation: "acquire"
            })
          })
        )
    }),
    Effect.tap(() =>
      Effect.acquireRelease(
        Effect.sync(() => {
          figures.busy++
        }),
        () =>
          Effect.sync(() => {
            figures.busy--
          })
      )
    )
  )

/** A pool as the application's client uses it: its bounded lease, and the figures of its connections. */
export interface LeasedPool {
  readonly lease: Effect.Effect<Connection, SqlError, Scope.Scope>
  readonly stats: Effect.Effect<PoolStats>
  /** The database's name (for spans). */
  readonly database: string
}

/** The bounded lease of a driver's pool of `size` connections, and its figures. */
export const leasedPool = (driver: DriverPool, size: number, waitMs: number): LeasedPool => {
  const figures: LeaseFigures = { busy: 0, waiting: 0 }
  return {
    lease: boundedLease(driver.client.reserve, waitMs, figures),
    stats: Effect.sync(() => {
      const open = driver.sessions.size
      return { max: size, open, idle: Math.max(0, open - figures.busy), waiting: figures.waiting }
    }),
    database: driver.database
  }
}
