// The plain server's hold: the captured hold's transaction replayed for the request's stay and guest, as the
// pgbench script replays it (./holdParams.ts decides which values are the request's own), on one connection
// of the pool: `BEGIN`, the statements up to the nights' count, the decision in Node (a full night is a
// `ROLLBACK` and a 409, as ours answers), the rest, `COMMIT` and a 201. Dates stay as captured, as pgbench's do,
// so the captured hold's expiry keeps every hold of the run live.
import { randomBytes, randomUUID } from "node:crypto"
import type pg from "pg"
import { holdPartOf, type HoldPart, type HoldRecipe, inventoryIndex } from "./holdParams.js"
import { bind, type Param, type Statement } from "./recipe.js"

/** What a `POST /holds` body says that the replay uses. */
export interface HoldRequest {
  readonly roomTypeId: string
  readonly checkIn: string
  readonly checkOut: string
  readonly guestId: string
}

export const holdRequestOf = (body: string): HoldRequest | undefined => {
  const parsed = JSON.parse(body) as Record<string, unknown>
  const { check_in, check_out, guest_id, room_type_id } = parsed
  return typeof room_type_id === "string" && typeof check_in === "string" && typeof check_out === "string" &&
      typeof guest_id === "string"
    ? { roomTypeId: room_type_id, checkIn: check_in, checkOut: check_out, guestId: guest_id }
    : undefined
}

const hex = (bytes: number) => randomBytes(bytes).toString("hex")

/** The request's own value of each part of the hold. */
const valuesFor = (request: HoldRequest): Record<HoldPart, (param: Param) => Param> => ({
  check_in: () => request.checkIn,
  check_out: () => request.checkOut,
  new_id: () => randomUUID(),
  line_ids: (param) => (Array.isArray(param) ? param.map(() => randomUUID()) : param),
  guest: () => request.guestId,
  confirmation_code: () => hex(6).toUpperCase(),
  event_id: () => `evt_${hex(16)}`
})

/** Whether every night of the count has a room left (the rows' `rooms` and `taken`, as pgbench's `\if`). */
const available = (rows: ReadonlyArray<{ rooms?: unknown; taken?: unknown }>) =>
  rows.length > 0 && rows.every((row) => Number(row.rooms) - Number(row.taken) > 0)

/**
 * The hold's status: 201 or 409. `query` runs a statement on the connection it is given, `own` maps a
 * parameter the request does not own (its key's hash and id) to the request's.
 */
export const runHold = async (
  client: pg.PoolClient,
  recipe: HoldRecipe,
  request: HoldRequest,
  query: (client: pg.PoolClient, statement: Statement, values: Array<unknown>) => Promise<ReadonlyArray<object>>,
  own: (param: Param) => Param
): Promise<201 | 409> => {
  const partOf = holdPartOf(recipe)
  const values = valuesFor(request)
  const paramsOf = (statement: Statement) =>
    bind(statement.params.map((param) => {
      const part = partOf(param)
      return part === undefined ? own(param) : values[part](param)
    }))
  const inventoryAt = inventoryIndex(recipe.hold)
  await client.query("BEGIN")
  try {
    for (const [i, statement] of recipe.hold.transaction.entries()) {
      const rows = await query(client, statement, paramsOf(statement))
      if (i === inventoryAt && !available(rows)) {
        await client.query("ROLLBACK")
        return 409
      }
    }
    await client.query("COMMIT")
    return 201
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined)
    throw error
  }
}
