import { SqlError } from "@effect/sql/SqlError"

// The failures by which the database says "not now" rather than "wrong": the bounds every connection has
// (`Sql.ts`), and a database that cannot be reached or is restarting. They are infrastructure failures like
// any other (defects), but the request they end is answered 503 `database_busy` with `Retry-After`, because
// the same request may succeed a moment later (and a readiness probe must say "not ready", not "bug").

/**
 * SQLSTATEs of the connection bounds (statement timeout or a cancel, lock timeout, idle-in-transaction
 * timeout) and of a server that is shutting down, starting up or full; and the socket errors of one that
 * cannot be reached. Class 08 (connection exceptions) is matched as a class.
 */
const busyStates: ReadonlySet<string> = new Set([
  "57014", "55P03", "25P03", "57P01", "57P02", "57P03", "53300",
  "ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"
])

/** pg's messages for a connection lost under a query. */
const lostConnection = /^Connection terminated|not queryable/

/** pg-pool's message when no connection became free within the pool timeout. */
const poolTimeout = "timeout exceeded when trying to connect"

const sqlState = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string"
    ? cause.code
    : undefined

const message = (cause: unknown): string | undefined =>
  cause instanceof Error ? cause.message : undefined

/** Whether a defect is a `SqlError` caused by one of the connection bounds or an unreachable database. */
export const isDatabaseBusy = (defect: unknown): boolean => {
  if (!(defect instanceof SqlError)) return false
  const state = sqlState(defect.cause)
  const text = message(defect.cause)
  return (state !== undefined && (busyStates.has(state) || state.startsWith("08"))) || text === poolTimeout ||
    (text !== undefined && lostConnection.test(text))
}
