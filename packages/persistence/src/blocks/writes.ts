// The rows block writes change, in the caller's transaction (the check before a commit that sets more rooms
// aside is ./roomsSetAside.ts).
import type * as SqlClient from "effect/sql/SqlClient"
import { Blocks } from "@hotel/domain"
import * as Effect from "effect/Effect"

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
