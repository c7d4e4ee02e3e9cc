// The database-only side of `ari-write`: the rows our server's `POST /ari` writes (the per-night overrides its
// MERGE writes, as captured from `AriWrites.apply` by ./capture.ts), written the raw way: ONE
// `INSERT ... SELECT ... FROM unnest(...) ON CONFLICT ... DO UPDATE` in a transaction, after the gateway's key
// lookup as the other pgbench scripts run it. Not our statement: ours also merges the items, validates the
// call against the plans it loads under the property's lock, and appends its `ari.changed` events.
import * as Effect from "effect/Effect"
import { adminQuery } from "./capture.js"
import type { PgbenchScript } from "./pgbench.js"
import { bind, type Recipe } from "./recipe.js"

/** The scratch database's table holding the captured rows, as arrays (one row). */
const ARI_ROWS = "bench_ari_rows"

const COLUMNS = [
  ["rate_plan_id", "uuid"],
  ["night", "date"],
  ["price", "numeric"],
  ["min_stay", "int"],
  ["max_stay", "int"],
  ["closed_to_arrival", "boolean"],
  ["closed_to_departure", "boolean"],
  ["stop_sell", "boolean"]
] as const

/**
 * Stores the rows of the captured call's MERGE (its parameters: plan ids, nights, the touched fields' mask,
 * then one array per field, in `COLUMNS`' order) in `ARI_ROWS`; answers how many rows it writes.
 */
export const ariRowsTable = async (url: string, call: Recipe): Promise<number> => {
  const merge = call.find((statement) => statement.sql.includes("MERGE INTO rate_plan_nights"))
  if (merge === undefined) throw new Error("the captured POST /ari ran no MERGE INTO rate_plan_nights")
  const [ids, nights, , ...fields] = bind(merge.params)
  const values = [ids, nights, ...fields]
  const arrays = COLUMNS.map(([column, type], i) => `$${i + 1}::${type}[] AS ${column}`).join(", ")
  await Effect.runPromise(adminQuery(url, `CREATE TABLE ${ARI_ROWS} AS SELECT ${arrays}`, values))
  return Array.isArray(ids) ? ids.length : 0
}

/**
 * The script: each session reads the rows once (pgbench keeps a session's variables from one transaction to the
 * next; `bench_loaded` is 0 until then), then per transaction the gateway's statements, and the upsert with
 * every price's cents drawn at random, as each of our requests sends its own (`ARI_VARY`; the call is
 * captured with cents 00).
 */
export const ariWriteScript = (gateway: PgbenchScript): PgbenchScript => {
  const names = COLUMNS.map(([column]) => column)
  const text = [
    "\\if :bench_loaded = 0",
    `SELECT 1 AS loaded, ${names.join(", ")} FROM ${ARI_ROWS}`,
    "\\gset bench_",
    "\\endif",
    gateway.text.trim(),
    `\\set bench_cents random(0, 99)`,
    "BEGIN;",
    `INSERT INTO rate_plan_nights (${names.join(", ")})
SELECT ${names.map((column) => (column === "price" ? "s.price + :bench_cents::int * 0.01" : `s.${column}`)).join(", ")}
FROM unnest(${COLUMNS.map(([column, type]) => `:bench_${column}::${type}[]`).join(", ")}) AS s(${names.join(", ")})
ON CONFLICT (rate_plan_id, night) DO UPDATE SET ${names.slice(2).map((column) => `${column} = EXCLUDED.${column}`).join(", ")};`,
    "COMMIT;",
    ""
  ].join("\n")
  return { text, defines: [...gateway.defines, "bench_loaded=0"] }
}
