import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

// The reservation row lock that confirm, cancel, charges and stay transitions take (`FOR NO KEY UPDATE`).
// It is taken in a statement of its own, and everything a decision needs is read in the statements after it.
// Under READ COMMITTED a locking statement that waited re-reads only the locked row once the other transaction
// commits: its joins and subqueries keep the snapshot from before the wait. Read in a later statement, they see
// everything the transaction that held the lock committed (a payment a confirm wrote, a folio a cancel voided).

/** Locks the property's reservation `id`; false when there is no such reservation. */
export const lockReservationRow = (sql: SqlClient.SqlClient, propertyId: string, id: string) =>
  sql<{ id: string }>`
    SELECT id FROM reservations WHERE property_id = ${propertyId} AND id = ${id} FOR NO KEY UPDATE`.pipe(
    Effect.map((rows) => rows.length > 0)
  )

/**
 * Locks the property's reservation `id`, then runs `read` (its own statements, after the lock); no rows when
 * there is no such reservation.
 */
export const lockReservationThen = <A, E, R>(
  sql: SqlClient.SqlClient,
  propertyId: string,
  id: string,
  read: Effect.Effect<ReadonlyArray<A>, E, R>
) =>
  Effect.flatMap(lockReservationRow(sql, propertyId, id), (exists) =>
    exists ? read : Effect.succeed<ReadonlyArray<A>>([]))
