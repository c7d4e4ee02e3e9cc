import type * as SqlClient from "effect/sql/SqlClient"

// A hold lives until `hold_expires_at`: from that instant it takes no inventory, redeems no promo code and
// reads as cancelled, whether or not the sweeper has written that down yet. These are the one
// definition every query shares, and the SQL twin of `Booking.isExpiredHold` / `Booking.isLiveHold`: a
// tentative row without a deadline counts as expired in both (test/HoldWindow.test.ts checks they agree).
// `now` comes from the caller's Clock, never SQL `now()`.

/** The reservation row `alias` is a hold whose window has passed (or that never had one). */
export const expiredHold = (sql: SqlClient.SqlClient, alias: string, now: Date) =>
  sql`(${sql(alias)}.status = 'tentative'
       AND (${sql(alias)}.hold_expires_at IS NULL OR ${sql(alias)}.hold_expires_at <= ${now}))`

/** The reservation row `alias` is a hold still inside its window. */
export const liveHold = (sql: SqlClient.SqlClient, alias: string, now: Date) =>
  sql`(${sql(alias)}.status = 'tentative' AND ${sql(alias)}.hold_expires_at IS NOT NULL
       AND ${sql(alias)}.hold_expires_at > ${now})`
