// The rows block writes change, in the caller's transaction, and the check every write that may set more rooms
// aside runs before it commits.
import type * as SqlClient from "@effect/sql/SqlClient"
import { Blocks } from "@hotel/domain"
import * as Effect from "effect/Effect"
import type { Inventory } from "../quotes/Inventory.js"
import type { BlockRead } from "./BlockSql.js"

export interface NewBlock {
  readonly propertyId: string
  readonly input: Blocks.BlockCreate
  readonly price: string | null
  readonly nights: ReadonlyArray<{ readonly date: string; readonly units: number }>
  readonly now: Date
}

/** The block (written tentative: a definite one is then confirmed in the same transaction) and its nights. */
export const insertBlock = (sql: SqlClient.SqlClient, block: NewBlock) =>
  Effect.map(
    sql<{ id: string }>`
      WITH b AS (
        INSERT INTO blocks (property_id, room_type_id, rate_plan_id, name, status, start_date, end_date, price,
                            release_at, release_days_before, notes, announced_until, created_at, updated_at)
        VALUES (${block.propertyId}, ${block.input.room_type_id}, ${block.input.rate_plan_id}, ${block.input.name},
                'tentative', ${block.input.start_date}, ${block.input.end_date}, ${block.price}::numeric,
                ${block.input.release_at == null ? null : new Date(block.input.release_at)},
                ${block.input.release_days_before ?? null}, ${block.input.notes ?? null}, ${block.input.start_date},
                ${block.now}, ${block.now})
        RETURNING id
      ), n AS (
        INSERT INTO block_nights (block_id, night, units)
        SELECT b.id, x.night, x.units FROM b,
          unnest(${block.nights.map((night) => night.date)}::date[], ${block.nights.map((night) => night.units)}::int[])
            AS x(night, units)
      )
      SELECT id FROM b`,
    (rows) => rows[0].id
  )

/** New units on the nights listed. */
export const setUnits = (
  sql: SqlClient.SqlClient,
  id: string,
  nights: ReadonlyArray<{ readonly date: string; readonly units: number }>
) =>
  nights.length === 0 ? Effect.void : Effect.asVoid(sql`
    UPDATE block_nights bn SET units = x.units
    FROM unnest(${nights.map((night) => night.date)}::date[], ${nights.map((night) => night.units)}::int[]) AS x(night, units)
    WHERE bn.block_id = ${id} AND bn.night = x.night`)

/**
 * A change that may set more rooms aside (a definite block created, confirmed, raised or its release moved
 * later): each night must have had as many rooms free for general sale, counted before the change under the
 * room type's lock, as the change sets aside more there; else 409 `no_availability` and the caller's
 * transaction rolls back.
 */
export const requireFreeRooms = (
  free: ReadonlyMap<string, number>,
  before: Blocks.CountedBlock | null,
  after: Blocks.CountedBlock
) =>
  Blocks.checkRoomsFree(Blocks.roomsTaken(before, after).map(({ date, needed }) => ({
    date,
    needed,
    free: free.get(date) ?? 0
  })))

/** The rooms free for general sale on each night of the block's range, at `now` (the caller holds the type's lock). */
export const freeBefore = (
  inventory: Inventory,
  propertyId: string,
  block: { readonly room_type_id: string; readonly start_date: string; readonly end_date: string },
  now: Date
) =>
  Effect.map(
    inventory.available(propertyId, { roomTypeId: block.room_type_id, from: block.start_date, to: block.end_date, now }),
    ([stock]) => new Map((stock?.nights ?? []).map((night) => [night.date, night.available]))
  )

/** The block as the inventory counts it. */
export const counted = (read: BlockRead): Blocks.CountedBlock => ({ status: read.block.status, nights: read.nights })
