import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** The connections of the process's database pool at one instant. */
export interface PoolStats {
  /** The pool's size (`HOTEL_DB_POOL_SIZE`). */
  readonly max: number
  /** Connections open, idle or lent out. */
  readonly open: number
  /** Open connections no request holds. */
  readonly idle: number
  /** Requests waiting for a connection: above zero for long, the pool is too small (or statements too slow). */
  readonly waiting: number
}

/**
 * The process's database pool, as far as an operator needs to see it: read when the metrics are scraped, so
 * the figures are those of that instant and nothing runs between scrapes.
 */
export class DatabasePool extends Context.Service<DatabasePool, {
  readonly stats: Effect.Effect<PoolStats>
}>()("@hotel/persistence/database/DatabasePool") {}
