import type * as SqlClient from "effect/sql/SqlClient"
import { Blocks, isUuid } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { remainingUnits, takesNights } from "../inventory/inventorySql.js"

// How a block is read at an instant: its row (with its plan's currency, for the price) and each night's units,
// live pickups, whether its release has passed (`block_night_released`, migration 0012) and what it has left,
// by the inventory count's own rules (`takesNights`, `remainingUnits`). Shared by the reads, the writes (under
// their locks) and the release worker.

export interface BlockRow {
  readonly id: string
  readonly property_id: string
  readonly room_type_id: string
  readonly rate_plan_id: string
  readonly name: string
  readonly status: Blocks.BlockStatus
  readonly start_date: string
  readonly end_date: string
  readonly price: string | null
  readonly currency: string
  readonly release_at: Date | null
  readonly release_days_before: number | null
  readonly notes: string | null
  readonly created_at: Date
}

/** A block as read: its row and its nights in date order. */
export interface BlockRead {
  readonly block: BlockRow
  readonly nights: ReadonlyArray<Blocks.NightState>
}

/** The block as a pickup decides on it (its status as a read shows it). */
export const pickupBlockOf = (read: BlockRead): Blocks.PickupBlock => ({
  id: read.block.id,
  status: Blocks.statusOf(read.block.status, read.nights),
  roomTypeId: read.block.room_type_id,
  ratePlanId: read.block.rate_plan_id,
  price: Blocks.pickupPrice(read.block)
})

export const blockColumns = (sql: SqlClient.SqlClient) =>
  sql`b.id, b.property_id, b.room_type_id, b.rate_plan_id, b.name, b.status,
      to_char(b.start_date, 'YYYY-MM-DD') AS start_date, to_char(b.end_date, 'YYYY-MM-DD') AS end_date,
      b.price::text AS price, rp.currency, b.release_at, b.release_days_before, b.notes, b.created_at`

interface NightRow {
  readonly block_id: string
  readonly date: string
  readonly units: number
  readonly pickups: number
  readonly released: boolean
  readonly remaining: number
}

/** The nights of the blocks `ids` at `now`, per block in date order. */
export const nightsOf = (sql: SqlClient.SqlClient, ids: ReadonlyArray<string>, now: Date) =>
  ids.length === 0 ? Effect.succeed(new Map<string, ReadonlyArray<Blocks.NightState>>()) : Effect.map(
    sql<NightRow>`
      SELECT n.*, ${remainingUnits(sql, { units: sql`n.units`, pickups: sql`n.pickups`, released: sql`n.released` })} AS remaining
      FROM (
        SELECT bn.block_id, bn.night, to_char(bn.night, 'YYYY-MM-DD') AS date, bn.units,
               (SELECT count(*) FROM reservations r
                 WHERE r.block_id = bn.block_id AND r.check_in_date <= bn.night AND bn.night < r.check_out_date
                   AND ${takesNights(sql, "r", now)})::int AS pickups,
               block_night_released(b.status, b.released_at, b.release_at, b.release_days_before, bn.night,
                                    p.timezone, ${now}) AS released
        FROM block_nights bn JOIN blocks b ON b.id = bn.block_id JOIN properties p ON p.id = b.property_id
        WHERE bn.block_id = ANY(${[...ids]}::uuid[])
      ) n
      ORDER BY n.block_id, n.night`,
    (rows) => {
      const byBlock = new Map<string, Array<Blocks.NightState>>()
      for (const row of rows) {
        const nights = byBlock.get(row.block_id) ?? []
        const { date, pickups, released, remaining, units } = row
        nights.push({ date, units, pickups, released, remaining })
        byBlock.set(row.block_id, nights)
      }
      return byBlock as Map<string, ReadonlyArray<Blocks.NightState>>
    }
  )

/** The blocks `rows` with their nights at `now`. */
export const withNights = (sql: SqlClient.SqlClient, rows: ReadonlyArray<BlockRow>, now: Date) =>
  Effect.map(nightsOf(sql, rows.map((row) => row.id), now), (nights) =>
    rows.map((block): BlockRead => ({ block, nights: nights.get(block.id) ?? [] })))

/**
 * The property's block `id` read at `now`; with `lock`, its row locked (`FOR NO KEY UPDATE`) first. Every
 * writer of a block, and every pickup, takes this lock after the room type's (see ./Blocks.ts).
 */
export const findBlock = (sql: SqlClient.SqlClient, propertyId: string, id: string, now: Date, lock: boolean) =>
  Effect.gen(function*() {
    if (!isUuid(id)) return undefined
    const rows = yield* sql<BlockRow>`
      SELECT ${blockColumns(sql)} FROM blocks b JOIN rate_plans rp ON rp.id = b.rate_plan_id
      WHERE b.property_id = ${propertyId} AND b.id = ${id}
      ${lock ? sql.literal("FOR NO KEY UPDATE OF b") : sql.literal("")}`
    if (rows.length === 0) return undefined
    const [read] = yield* withNights(sql, rows, now)
    return read
  })
