import { isSqlError, type SqlError } from "effect/sql/SqlError"
import { PoolWaitTimeout } from "./PoolLease.js"
import { CommitNotReplicated } from "./SessionFailures.js"

// The failures by which the database says "not now" rather than "wrong": the bounds every connection has
// (`DriverPool.ts`, `PoolLease.ts`), and a database that cannot be reached, is restarting, or is being failed
// over. They are infrastructure failures like any other (defects), but the request they end is answered 503
// `database_busy` with `Retry-After`, because the same request may succeed a moment later (and a readiness
// probe must say "not ready", not "bug"). Read from the driver's classification of the failure (its `reason`)
// and, where that is too coarse, the server's SQLSTATE on the reason's cause.

/**
 * SQLSTATEs of the bounds that have no reason of their own (the idle-in-transaction timeout), of a server
 * that is full, and of a write sent to a server that has become a standby.
 */
const boundStates: ReadonlySet<string> = new Set(["25P03", "53300", "25006"])

/**
 * SQLSTATEs of a server that is shutting down, crashed or starting up. Class 08 (connection exceptions, and
 * `NoSuitableHost`'s 08001) is the driver's `ConnectionError`, as are socket errors, a connect timeout and a
 * connection the service closed under a statement (`HostStream.ts`).
 */
const unreachableStates: ReadonlySet<string> = new Set(["57P01", "57P02", "57P03"])

/** A standby cancels a read whose rows its replay must change or remove (hot standby conflicts). */
const recoveryConflict = /conflict with recovery/

const sqlState = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string"
    ? cause.code
    : undefined

const reasonOf = (error: unknown): SqlError["reason"] | undefined => (isSqlError(error) ? error.reason : undefined)

/** Whether a `SqlError` says the server could not be reached or the connection was lost (or never made). */
export const isConnectionFailure = (error: unknown): boolean => {
  const reason = reasonOf(error)
  if (reason === undefined) return false
  const state = sqlState(reason.cause)
  return reason._tag === "ConnectionError" || (state !== undefined && (unreachableStates.has(state) || state.startsWith("08")))
}

/**
 * Whether a `SqlError` says no primary answers: the server cannot be reached or the connection was lost (the
 * failover window: the old primary refuses, the standby is still in recovery, `NoSuitableHost`), or a write
 * reached a server that is read-only (a standby, or one being promoted, which refuses writes until it is the
 * primary). Not the bounds (a statement or lock timeout, a full pool): those are a primary that is busy, not gone.
 */
export const isPrimaryUnavailable = (error: unknown): boolean =>
  isConnectionFailure(error) || sqlState(reasonOf(error)?.cause) === "25006"

/** Whether a `SqlError` is a standby's cancel of a read in conflict with its replay. */
export const isRecoveryConflict = (error: unknown): boolean => {
  const cause = reasonOf(error)?.cause
  return cause instanceof Error && recoveryConflict.test(cause.message)
}

/** Whether a defect is a `SqlError` caused by one of the connection bounds or an unreachable database. */
export const isDatabaseBusy = (defect: unknown): boolean => {
  const reason = reasonOf(defect)
  if (reason === undefined) return false
  const state = sqlState(reason.cause)
  return isConnectionFailure(defect) ||
    reason._tag === "StatementTimeoutError" || reason._tag === "LockTimeoutError" ||
    (state !== undefined && boundStates.has(state)) ||
    reason.cause instanceof PoolWaitTimeout || reason.cause instanceof CommitNotReplicated || isRecoveryConflict(defect)
}
