import type * as SqlClient from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"
import { Pricing } from "@hotel/domain"
import { liveHold } from "../booking/HoldWindow.js"

// THE inventory count, one statement every path that sells or quotes runs (holds, booking rooms, changes,
// confirms, definite blocks, out-of-order periods, `/rates`, `/availability`): per room type (catalogue order)
// and night, the type's rooms, those out of order, the night's sell limit and overbooking, its capacity
// (`night_capacity`, migration 0013: min(rooms in service, sell limit) + overbooking), the nights taken (live
// holds, confirmed, checked in), the remaining units of definite blocks not yet released
// (`block_night_released`, migration 0012), for a pickup its own block's share of them, and the highest
// overbooking those stays were sold under (what a live hold's confirm counts at least, `Inventory.roomsToKeep`). `./Inventory.ts`
// turns the rows into what sale sees (`Inventory.freeForSale` in the domain). Which stays take a night
// (`takesNights`) and what a block's night has left (`remainingUnits`) are written once, here; a block's read
// (`blocks/BlockSql.ts`) uses the same two.

/**
 * The reservation `alias` takes its nights at `now`: a live hold, confirmed or checked in (a block's live pickup
 * is one of its reservations that does). The status list first, so the planner can use the partial index
 * `reservations_inventory`.
 */
export const takesNights = (sql: SqlClient.SqlClient, alias: string, now: Date) =>
  sql`(${sql(alias)}.status IN ('tentative', 'confirmed', 'checked_in')
       AND (${sql(alias)}.status <> 'tentative' OR ${liveHold(sql, alias, now)}))`

/**
 * The units a block still sets aside on a night: units − its live pickups covering the night, never below
 * zero, and none once the night is released (`block_night_released`, migration 0012).
 */
export const remainingUnits = (
  sql: SqlClient.SqlClient,
  night: { readonly units: Fragment; readonly pickups: Fragment; readonly released: Fragment }
) => sql`(CASE WHEN ${night.released} THEN 0 ELSE GREATEST(0, ${night.units} - ${night.pickups}) END)::int`

/** One room type × night. */
export interface NightRow {
  readonly room_type_id: string
  readonly date: string
  readonly rooms: number
  readonly out_of_order: number
  readonly sell_limit: number | null
  readonly overbooking: number
  readonly capacity: number
  readonly taken: number
  readonly blocked: number
  readonly own: number
  /** The highest overbooking a stay counted in `taken` was sold under on the night (`held_overbooking`). */
  readonly sold_under: number
}

export interface NightQuery {
  readonly roomTypeId: string | null
  readonly from: string
  readonly to: string
  readonly now: Date
  /** A reservation not to count. */
  readonly exclude: string | null
  /** A pickup's block. */
  readonly blockId: string | null
}

/** The supply of each night: the type's rooms out of order, and its controls. */
const supplyOf = (sql: SqlClient.SqlClient, propertyId: string, q: NightQuery) => sql`
        broken AS (
          SELECT r.room_type_id, n.night, count(*)::int AS out_of_order
          FROM out_of_order o
          JOIN rooms r ON r.id = o.room_id AND NOT r.retired
          JOIN nights n ON o.start_date <= n.night AND n.night < o.end_date
          WHERE o.property_id = ${propertyId} AND r.room_type_id IN (SELECT id FROM types)
            AND o.start_date < ${q.to}::date AND o.end_date > ${q.from}::date
          GROUP BY r.room_type_id, n.night
        ),
        controls AS (
          SELECT c.room_type_id, c.night, c.sell_limit, c.overbooking
          FROM inventory_nights c
          WHERE c.room_type_id IN (SELECT id FROM types) AND c.night >= ${q.from}::date AND c.night < ${q.to}::date
        )`

/** The demand of each night: the stays taken (per block, for its pickups) and what definite blocks set aside. */
const demandOf = (sql: SqlClient.SqlClient, propertyId: string, q: NightQuery) => sql`
        stays AS (
          SELECT res.room_type_id, res.block_id, n.night, count(*)::int AS taken,
                 max(res.held_overbooking[n.night - res.check_in_date + 1]) AS sold_under
          FROM reservations res
          JOIN nights n ON res.check_in_date <= n.night AND n.night < res.check_out_date
          WHERE res.property_id = ${propertyId}
            AND res.room_type_id IN (SELECT id FROM types)
            AND ${takesNights(sql, "res", q.now)}
            AND (${q.exclude}::uuid IS NULL OR res.id <> ${q.exclude}::uuid)
            AND res.check_in_date < ${q.to}::date AND res.check_out_date > ${q.from}::date
            -- Implied by the stay-length bound (migration 0008); it bounds the index range scanned.
            AND res.check_in_date > ${q.from}::date - ${Pricing.maxStayNights}::int
          GROUP BY res.room_type_id, res.block_id, n.night
        ),
        taken AS (
          SELECT room_type_id, night, sum(taken)::int AS taken, max(sold_under) AS sold_under
          FROM stays GROUP BY room_type_id, night
        ),
        held AS (
          SELECT room_type_id, night, sum(remaining)::int AS blocked,
                 COALESCE(sum(remaining) FILTER (WHERE block_id = ${q.blockId}::uuid), 0)::int AS own
          FROM (
            SELECT b.room_type_id, b.id AS block_id, bn.night, ${remainingUnits(sql, {
              units: sql`bn.units`,
              pickups: sql`COALESCE(s.taken, 0)`,
              released: sql`block_night_released(b.status, b.released_at, b.release_at, b.release_days_before, bn.night,
                                                 p.timezone, ${q.now})`
            })} AS remaining
            FROM blocks b
            JOIN properties p ON p.id = b.property_id
            JOIN block_nights bn ON bn.block_id = b.id AND bn.night >= ${q.from}::date AND bn.night < ${q.to}::date
            LEFT JOIN stays s ON s.block_id = b.id AND s.night = bn.night
            WHERE b.property_id = ${propertyId} AND b.status = 'definite'
              AND b.room_type_id IN (SELECT id FROM types)
              AND b.start_date < ${q.to}::date AND b.end_date > ${q.from}::date
          ) block_nights_left
          GROUP BY room_type_id, night
        )`

/** Every id is a UUID (or null) and `from < to`: the caller checked. */
export const nightRows = (sql: SqlClient.SqlClient, propertyId: string, q: NightQuery) =>
  sql<NightRow>`
        WITH types AS (
          SELECT rt.id, rt.position, rt.code,
                 (SELECT count(*) FROM rooms r WHERE r.room_type_id = rt.id AND NOT r.retired)::int AS rooms
          FROM room_types rt
          WHERE rt.property_id = ${propertyId} AND (${q.roomTypeId}::uuid IS NULL OR rt.id = ${q.roomTypeId}::uuid)
        ),
        nights AS (
          SELECT d::date AS night
          FROM generate_series(${q.from}::date, ${q.to}::date - 1, interval '1 day') AS d
        ),
        ${supplyOf(sql, propertyId, q)},
        ${demandOf(sql, propertyId, q)}
        SELECT t.id AS room_type_id, to_char(n.night, 'YYYY-MM-DD') AS date, t.rooms,
               COALESCE(o.out_of_order, 0) AS out_of_order, c.sell_limit, COALESCE(c.overbooking, 0) AS overbooking,
               night_capacity(t.rooms - COALESCE(o.out_of_order, 0), c.sell_limit, COALESCE(c.overbooking, 0)) AS capacity,
               COALESCE(k.taken, 0) AS taken, COALESCE(h.blocked, 0) AS blocked, COALESCE(h.own, 0) AS own,
               COALESCE(k.sold_under, 0) AS sold_under
        FROM types t
        CROSS JOIN nights n
        LEFT JOIN broken o ON o.room_type_id = t.id AND o.night = n.night
        LEFT JOIN controls c ON c.room_type_id = t.id AND c.night = n.night
        LEFT JOIN taken k ON k.room_type_id = t.id AND k.night = n.night
        LEFT JOIN held h ON h.room_type_id = t.id AND h.night = n.night
        ORDER BY t.position, t.code, n.night`
