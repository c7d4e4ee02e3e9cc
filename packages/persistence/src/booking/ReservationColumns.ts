import type * as SqlClient from "effect/sql/SqlClient"
import { expiredHold } from "./HoldWindow.js"
import type { AccommodationRow, FolioLineRow, ReservationRow } from "./ReservationQueries.js"

// How one reservation is read as `GET /reservations/{id}` shows it at `now`, in one statement. A new hold is
// known as this read will show it before its insert (`heldRead`, ./holds/writes.ts), in the same shape.

/** A reservation read with its accommodations and its folio's lines. */
export interface ReservationRead {
  readonly reservation: ReservationRow
  readonly accommodations: ReadonlyArray<AccommodationRow>
  readonly lines: ReadonlyArray<FolioLineRow>
}

/** A folio line as JSON carries it (a timestamp is text). */
type FolioLineJson = Omit<FolioLineRow, "created_at"> & { readonly created_at: string }

/** The row `recordColumns` selects: the parts come back as JSON. */
export type RecordRow = ReservationRow & {
  readonly accommodations_json: ReadonlyArray<AccommodationRow>
  readonly lines_json: ReadonlyArray<FolioLineJson>
}

/** The reservation `r` (with its room type `rt` and folio `f`) as read at `now`: an expired hold reads cancelled. */
export const reservationColumns = (sql: SqlClient.SqlClient, now: Date) => {
  const expired = expiredHold(sql, "r", now)
  return sql`
      r.id, r.confirmation_code,
      CASE WHEN ${expired} THEN 'cancelled' ELSE r.status END AS status,
      r.guest_id, r.room_type_id, rt.name AS room_type_name, r.rate_plan_id, r.check_in_date, r.check_out_date,
      r.adults, r.children, r.child_ages, r.currency, r.nightly_rate::text AS nightly_rate, r.total::text AS total,
      r.bed_config, r.booking_source, r.special_notes, r.promo_code, r.hold_expires_at,
      CASE WHEN ${expired} THEN 'hold_expired' ELSE r.cancellation_reason END AS cancellation_reason,
      f.id AS folio_id, CASE WHEN ${expired} THEN 'voided' ELSE f.status END AS folio_status, r.booking_id,
      r.block_id,
      r.created_at`
}

/** An accommodation `a` of the reservation `r`, as read at `now`. */
export const accommodationColumns = (sql: SqlClient.SqlClient, now: Date) => sql`
      a.id, a.reservation_id, a.room_id, a.room_type_id, a.check_in_date, a.check_out_date,
      CASE WHEN ${expiredHold(sql, "r", now)} THEN 'cancelled' ELSE a.status END AS status,
      a.nightly_rate::text AS nightly_rate`

export const folioLineColumns = (sql: SqlClient.SqlClient) => sql`
      id, folio_id, kind, description, amount::text AS amount, currency, exchange_rate::text AS exchange_rate,
      revenue_category, created_at`

/** One reservation record in one row (`RecordRow`): the reservation `r` joined to `rt` and `f`, with its parts. */
export const recordColumns = (sql: SqlClient.SqlClient, now: Date) =>
  sql`
    ${reservationColumns(sql, now)},
    (SELECT COALESCE(json_agg(t), '[]') FROM (
      SELECT ${accommodationColumns(sql, now)} FROM accommodations a
      WHERE a.reservation_id = r.id ORDER BY a.check_in_date, a.id) t) AS accommodations_json,
    (SELECT COALESCE(json_agg(t), '[]') FROM (
      SELECT ${folioLineColumns(sql)} FROM folio_lines fl
      WHERE fl.folio_id = f.id ORDER BY fl.position) t) AS lines_json`

/** The record of a `RecordRow`, its parts typed like the separate queries' rows. */
export const readOf = ({ accommodations_json, lines_json, ...reservation }: RecordRow): ReservationRead => ({
  reservation,
  accommodations: accommodations_json,
  // JSON carries a timestamp as text; the lines' own query answers a Date.
  lines: lines_json.map((line) => ({ ...line, created_at: new Date(line.created_at) }))
})
