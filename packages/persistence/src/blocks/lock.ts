// The locks of block writes and pickups. Lock order, for every writer (holds, bookings, block writes, the
// confirm's re-check): guest → API key (a capped one) → room types in id order → blocks in id order → promo
// codes. A block is always locked after its room type's row (`FOR NO KEY UPDATE`, the lock every hold of the
// type queues on), so a block's write and a pickup or an ordinary hold of its type run one at a time, and
// nothing waits in a cycle: no writer holding a block's lock ever asks for a room type's.
import type * as SqlClient from "@effect/sql/SqlClient"
import { BlockNotFound, isUuid } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { type BlockRead, findBlock } from "./BlockSql.js"

export const blockNotFound = (id: string) => new BlockNotFound({ message: `No block ${id}` })

/** The room type's lock with its rooms in service; none for an unknown room type of the property. */
export const lockRoomType = (sql: SqlClient.SqlClient, propertyId: string, roomTypeId: string) =>
  Effect.map(
    sql<{ id: string; name: string; rooms: number }>`
      SELECT rt.id, rt.name,
             (SELECT count(*) FROM rooms r WHERE r.room_type_id = rt.id AND NOT r.retired)::int AS rooms
      FROM room_types rt
      WHERE rt.property_id = ${propertyId} AND rt.id = ${isUuid(roomTypeId) ? roomTypeId : null}
      FOR NO KEY UPDATE OF rt`,
    (rows) => rows[0]
  )

/**
 * A block write's locks: the block's room type (read unlocked first: a block never changes its room type),
 * then the block's row; answers the block as read under them, with its type's rooms. 404 `block_not_found`.
 */
export const lockBlockForWrite = (sql: SqlClient.SqlClient, propertyId: string, id: string, now: Date) =>
  Effect.gen(function*() {
    if (!isUuid(id)) return yield* blockNotFound(id)
    const [found] = yield* sql<{ room_type_id: string }>`
      SELECT room_type_id FROM blocks WHERE property_id = ${propertyId} AND id = ${id}`
    if (found === undefined) return yield* blockNotFound(id)
    const roomType = yield* lockRoomType(sql, propertyId, found.room_type_id)
    const read = yield* findBlock(sql, propertyId, id, now, true)
    if (read === undefined || roomType === undefined) return yield* blockNotFound(id)
    return { ...read, rooms: roomType.rooms }
  })

/**
 * A pickup's block, locked after the room types (the caller holds them): the blocks of a booking's rooms in id
 * order. Answers each found block by id; an id with no block is missing from the map.
 */
export const lockPickupBlocks = (
  sql: SqlClient.SqlClient,
  propertyId: string,
  ids: ReadonlyArray<string>,
  now: Date
) =>
  Effect.gen(function*() {
    const found = new Map<string, BlockRead>()
    for (const id of [...new Set(ids.filter(isUuid))].sort()) {
      const read = yield* findBlock(sql, propertyId, id, now, true)
      if (read !== undefined) found.set(id, read)
    }
    return found as ReadonlyMap<string, BlockRead>
  })
