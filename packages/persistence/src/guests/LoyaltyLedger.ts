import type * as SqlClient from "effect/sql/SqlClient"
import * as Effect from "effect/Effect"

// The guest's points ledger: a confirm writes the `earn`, a change of the stay an `adjustment` (the difference
// its new room revenue earns), a cancel its `reversal`, a redemption a `redeem`
// (negative points). A balance is the sum of a guest's entries, so entries are only ever added.

export interface LedgerEntry {
  readonly propertyId: string
  readonly guestId: string
  readonly reservationId: string | null
  readonly kind: "earn" | "reversal" | "redeem" | "adjustment"
  readonly points: number
}

/** Adds one entry to the ledger (in the caller's transaction); answers its id. */
export const addLedgerEntry = (sql: SqlClient.SqlClient, entry: LedgerEntry, now: Date) =>
  sql<{ id: string }>`
    INSERT INTO loyalty_ledger (property_id, guest_id, reservation_id, kind, points, created_at)
    VALUES (${entry.propertyId}, ${entry.guestId}, ${entry.reservationId}, ${entry.kind}, ${entry.points}, ${now})
    RETURNING id`.pipe(
    Effect.flatMap((rows) =>
      rows[0] === undefined ? Effect.die(new Error("INSERT ... RETURNING gave no row")) : Effect.succeed(rows[0].id)
    )
  )
