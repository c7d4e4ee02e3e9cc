import type * as HttpApp from "@effect/platform/HttpApp"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"

/**
 * Serves every request to its end, whatever its client does. The Node server interrupts a request's fiber
 * when the client closes the connection (and the router makes each route interruptible again), and
 * `@effect/sql-pg` answers an interrupted query with `pg_cancel_backend` sent through the same pool: under
 * load that cancel waits for a connection only it could free, and, late, cancels whatever that backend runs
 * by then. So a request runs in a fiber of its own that nothing interrupts: a write that has started reaches
 * its commit or rollback (and stores its response for its `Idempotency-Key`), and no cancel is ever sent.
 * The client's fiber only waits for it; a hang-up ends the wait, not the work. `statement_timeout`,
 * `lock_timeout` and `idle_in_transaction_session_timeout` (`Sql.ts`) bound how long that work can take.
 */
export const servedToTheEnd = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R> =>
  Effect.flatMap(Effect.forkDaemon(app), Fiber.join)
