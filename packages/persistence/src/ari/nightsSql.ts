// The write of plans' per-night overrides: ONE statement for every plan and night of a call, whatever its size.
// Each source row carries the fields its night's items set (`touched`, one bit per field) with their values; a
// field not touched keeps what is stored. A night whose every field ends up without an override loses its row,
// so the table holds only overrides.
import type * as SqlClient from "effect/sql/SqlClient"
import { Ari, Money } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { arrayOf } from "../database/ArrayParameter.js"

/** Each field's column and its bit in `touched`. */
const columns = [
  { field: "price", bit: 1 },
  { field: "min_stay", bit: 2 },
  { field: "max_stay", bit: 4 },
  { field: "closed_to_arrival", bit: 8 },
  { field: "closed_to_departure", bit: 16 },
  { field: "stop_sell", bit: 32 }
] as const satisfies ReadonlyArray<{ readonly field: Ari.RateField; readonly bit: number }>

const touchedOf = (patch: Ari.RatePatch): number =>
  columns.reduce((mask, { bit, field }) => (patch[field] === undefined ? mask : mask | bit), 0)

/** A field's value after the write: the source's when its night touched the field, else the stored one. */
const resolved = ({ bit, field }: typeof columns[number]) =>
  `CASE WHEN s.touched & ${bit} <> 0 THEN s.${field} ELSE t.${field} END`

const noOverrideLeft = columns.map((column) => `(${resolved(column)}) IS NULL`).join(" AND ")
const updates = columns.map((column) => `${column.field} = ${resolved(column)}`).join(", ")
const anySet = columns.map(({ field }) => `s.${field} IS NOT NULL`).join(" OR ")

/** Writes the merged patches (`Ari.mergeRateItems`); the caller holds the property's lock. */
export const writeNights = (sql: SqlClient.SqlClient, patches: ReadonlyArray<Ari.NightPatch>) => {
  if (patches.length === 0) return Effect.void
  const values = patches.map((p) => p.patch)
  return sql`
    MERGE INTO rate_plan_nights t
    USING unnest(
      ${patches.map((p) => p.ratePlanId)}::uuid[], ${patches.map((p) => p.night)}::date[],
      ${values.map(touchedOf)}::int[],
      ${arrayOf("numeric", values.map((v) => (v.price == null ? null : Money.toDb(v.price))))}::numeric[],
      ${arrayOf("integer", values.map((v) => v.min_stay ?? null))}::int[],
      ${arrayOf("integer", values.map((v) => v.max_stay ?? null))}::int[],
      ${arrayOf("boolean", values.map((v) => v.closed_to_arrival ?? null))}::boolean[],
      ${arrayOf("boolean", values.map((v) => v.closed_to_departure ?? null))}::boolean[],
      ${arrayOf("boolean", values.map((v) => v.stop_sell ?? null))}::boolean[]
    ) AS s(rate_plan_id, night, touched, price, min_stay, max_stay, closed_to_arrival, closed_to_departure, stop_sell)
    ON t.rate_plan_id = s.rate_plan_id AND t.night = s.night
    WHEN MATCHED AND ${sql.literal(noOverrideLeft)} THEN DELETE
    WHEN MATCHED THEN UPDATE SET ${sql.literal(updates)}
    WHEN NOT MATCHED AND (${sql.literal(anySet)}) THEN
      INSERT (rate_plan_id, night, price, min_stay, max_stay, closed_to_arrival, closed_to_departure, stop_sell)
      VALUES (s.rate_plan_id, s.night, s.price, s.min_stay, s.max_stay, s.closed_to_arrival, s.closed_to_departure, s.stop_sell)`
    .pipe(Effect.asVoid)
}

/**
 * A plan that becomes derived follows its parent's price: its price overrides go (a night left with no override
 * loses its row). The caller holds the property's lock, as a plan write does.
 */
export const clearPrices = (sql: SqlClient.SqlClient, ratePlanId: string) => {
  const onlyPrice = sql.literal(columns.filter(({ field }) => field !== "price").map(({ field }) => `${field} IS NULL`).join(" AND "))
  return sql`
    WITH gone AS (
      DELETE FROM rate_plan_nights WHERE rate_plan_id = ${ratePlanId} AND price IS NOT NULL AND ${onlyPrice}
    )
    UPDATE rate_plan_nights SET price = NULL
    WHERE rate_plan_id = ${ratePlanId} AND price IS NOT NULL AND NOT (${onlyPrice})`.pipe(Effect.asVoid)
}
