import { SqlError } from "effect/sql/SqlError"
import { CommitNotReplicated } from "./QueryGuard.js"

// The failures by which the database says "not now" rather than "wrong": the bounds every connection has
// (`Sql.ts`), and a database that cannot be reached, is restarting, or is being failed over. They are
// infrastructure failures like any other (defects), but the request they end is answered 503 `database_busy`
// with `Retry-After`, because the same request may succeed a moment later (and a readiness probe must say
// "not ready", not "bug").

/**
 * SQLSTATEs of the connection bounds (statement timeout or a cancel, lock timeout, idle-in-transaction
 * timeout), of a server that is full, and of a write sent to a server that has become a standby.
 */
const boundStates: ReadonlySet<string> = new Set(["57014", "55P03", "25P03", "53300", "25006"])

/**
 * SQLSTATEs of a server that is shutting down, crashed or starting up, and the socket errors of one that
 * cannot be reached. Class 08 (connection exceptions, and `NoSuitableHost`'s 08001) is matched as a class.
 */
const unreachableStates: ReadonlySet<string> = new Set([
  "57P01", "57P02", "57P03",
  "ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"
])

/** pg's messages for a connection lost under a query, or not made within its connect timeout. */
const lostConnection = /^Connection terminated|not queryable|^timeout expired$/

/** pg-pool's message when no connection became free within the pool timeout. */
const poolTimeout = "timeout exceeded when trying to connect"

/** A standby cancels a read whose rows its replay must change or remove (hot standby conflicts). */
const recoveryConflict = /conflict with recovery/

const sqlState = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string"
    ? cause.code
    : undefined

const message = (cause: unknown): string | undefined =>
  cause instanceof Error ? cause.message : undefined

const causeOf = (error: unknown): unknown => (error instanceof SqlError ? error.cause : undefined)

/** Whether a `SqlError` says the server could not be reached or the connection was lost (or never made). */
export const isConnectionFailure = (error: unknown): boolean => {
  if (!(error instanceof SqlError)) return false
  const cause = causeOf(error)
  const state = sqlState(cause)
  const text = message(cause)
  return (state !== undefined && (unreachableStates.has(state) || state.startsWith("08"))) ||
    (text !== undefined && lostConnection.test(text))
}

/**
 * Whether a `SqlError` says no primary answers: the server cannot be reached or the connection was lost (the
 * failover window: the old primary refuses, the standby is still in recovery, `NoSuitableHost`), or a write
 * reached a server that is read-only (a standby, or one being promoted, which refuses writes until it is the
 * primary). Not the bounds (a statement or lock timeout, a full pool): those are a primary that is busy, not gone.
 */
export const isPrimaryUnavailable = (error: unknown): boolean =>
  isConnectionFailure(error) || sqlState(causeOf(error)) === "25006"

/** Whether a `SqlError` is a standby's cancel of a read in conflict with its replay. */
export const isRecoveryConflict = (error: unknown): boolean => {
  const text = message(causeOf(error))
  return text !== undefined && recoveryConflict.test(text)
}

/** Whether a defect is a `SqlError` caused by one of the connection bounds or an unreachable database. */
export const isDatabaseBusy = (defect: unknown): boolean => {
  if (!(defect instanceof SqlError)) return false
  const cause = defect.cause
  const state = sqlState(cause)
  return isConnectionFailure(defect) || (state !== undefined && boundStates.has(state)) ||
    message(cause) === poolTimeout || cause instanceof CommitNotReplicated || isRecoveryConflict(defect)
}
