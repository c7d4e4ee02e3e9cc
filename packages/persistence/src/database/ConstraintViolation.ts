import type { SqlError } from "effect/sql/SqlError"

// The constraint violations a write turns into an answer of its own ("already exists", "taken"), read from
// the driver's classification of the failure: a unique violation is its own reason, with the constraint's
// name; any other constraint's (an exclusion constraint's, 23P01) carries the server's fields on its cause.

/** A unique violation (23505) of `constraint`: the meaningful "already exists". */
export const isUniqueViolation = (error: SqlError, constraint: string): boolean =>
  error.reason._tag === "UniqueViolation" && error.reason.constraint === constraint

/** An exclusion constraint's violation (23P01) of `constraint`: what it keeps apart overlaps. */
export const isExclusionViolation = (error: SqlError, constraint: string): boolean => {
  const cause: unknown = error.reason.cause
  if (error.reason._tag !== "ConstraintError" || typeof cause !== "object" || cause === null) return false
  return "code" in cause && cause.code === "23P01" && "constraint" in cause && cause.constraint === constraint
}
