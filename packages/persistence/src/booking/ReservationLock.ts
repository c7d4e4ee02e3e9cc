import type * as SqlClient from "effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { lockStay } from "./stayLocks.js"

// The reservation row lock that confirm, cancel, charges, changes and stay transitions take (`lockStay`).
// It is taken in a statement of its own, and everything a decision needs is read in the statements after it.
// Under READ COMMITTED a locking statement that waited re-reads only the locked row once the other transaction
// commits: its joins and subqueries keep the snapshot from before the wait. Read in a later statement, they see
// everything the transaction that held the lock committed (a payment a confirm wrote, a folio a cancel voided).

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
  Effect.flatMap(lockStay(sql, propertyId, { reservation: id }), (locks) =>
    locks.reservationFound ? read : Effect.succeed<ReadonlyArray<A>>([]))
