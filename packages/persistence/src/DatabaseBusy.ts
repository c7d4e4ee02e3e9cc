import { SqlError } from "@effect/sql/SqlError"

// The failures by which the database says "not now" rather than "wrong": the bounds every connection has
// (`Sql.ts`). They are infrastructure failures like any other (defects), but the request they end is
// answered 503 `database_busy` with `Retry-After`, because the same request may succeed a moment later.

/** SQLSTATEs of the connection bounds: statement timeout (or a cancel), lock timeout, idle-in-transaction timeout. */
const busyStates: ReadonlySet<string> = new Set(["57014", "55P03", "25P03"])

/** pg-pool's message when no connection became free within the pool timeout. */
const poolTimeout = "timeout exceeded when trying to connect"

const sqlState = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string"
    ? cause.code
    : undefined

const message = (cause: unknown): string | undefined =>
  cause instanceof Error ? cause.message : undefined

/** Whether a defect is a `SqlError` caused by one of the connection bounds. */
export const isDatabaseBusy = (defect: unknown): boolean => {
  if (!(defect instanceof SqlError)) return false
  const state = sqlState(defect.cause)
  return (state !== undefined && busyStates.has(state)) || message(defect.cause) === poolTimeout
}
