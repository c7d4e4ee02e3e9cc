// The locks of block writes: the block's room type (the lock every hold of the type queues on), then the block's
// row, both taken by `lockStay` (../booking/stayLocks.ts, which holds the order every writer follows), so a
// block's write and a pickup or an ordinary hold of its type run one at a time.
import type * as SqlClient from "effect/sql/SqlClient"
import { BlockNotFound, isUuid } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { lockStay } from "../booking/stayLocks.js"

export const blockNotFound = (id: string) => new BlockNotFound({ message: `No block ${id}` })

/** The room type's lock with its rooms in service; none for an unknown room type of the property. */
export const lockRoomType = (sql: SqlClient.SqlClient, propertyId: string, roomTypeId: string) =>
  Effect.map(lockStay(sql, propertyId, { roomTypes: [roomTypeId], countRooms: true }), (locks) => locks.roomTypes.get(roomTypeId))

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
    const locks = yield* lockStay(sql, propertyId, { roomTypes: [found.room_type_id], countRooms: true, blocks: [id], now })
    const roomType = locks.roomTypes.get(found.room_type_id)
    const read = locks.blocks.get(id)
    if (read === undefined || roomType === undefined) return yield* blockNotFound(id)
    return { ...read, rooms: roomType.rooms }
  })
