import * as SqlClient from "effect/sql/SqlClient"
import { type InvalidParameters, Inventory as Rules, isUuid, RoomTypeNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { EventOutbox } from "../events/EventOutbox.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"
import { lockRoomType } from "../blocks/lock.js"
import { writeControls } from "./controlsWrite.js"
import { inventoryEvents } from "./events.js"

// Sell limits and overbooking per night (`PUT` and `GET /room-types/{id}/inventory`). The PUT locks the room
// type's row (the lock every sale of the type takes, then nothing else), so no sale of the type counts a night
// while its controls change. A capacity set below what is taken is allowed: it stops further sales and
// cancels nothing.

export interface ControlsNight {
  readonly date: string
  readonly sell_limit: number | null
  readonly overbooking: number
}

const requireType = (found: { readonly rooms: number } | undefined, id: string) =>
  found === undefined ? Effect.fail(new RoomTypeNotFound({ message: `No room type ${id}` })) : Effect.succeed(found)

export class InventoryControls extends Context.Service<InventoryControls>()("@hotel/persistence/inventory/InventoryControls", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const put = (
      propertyId: string,
      roomTypeId: string,
      input: Rules.InventoryPut
    ): Effect.Effect<{ readonly nightsUpdated: number }, InvalidParameters | RoomTypeNotFound, EventOutbox> =>
      Effect.gen(function*() {
        yield* Effect.fromResult(Rules.inventoryRange(input.start_date, input.end_date))
        const roomType = yield* requireType(yield* lockRoomType(sql, propertyId, roomTypeId), roomTypeId)
        const nightsUpdated = yield* writeControls(sql, roomTypeId, input, roomType.rooms)
        yield* Effect.flatMap(EventOutbox, (outbox) =>
          outbox.append(propertyId, inventoryEvents(roomTypeId, input.start_date, input.end_date)))
        return { nightsUpdated }
      }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan("InventoryControls.put"))

    /** Each night of `[start, end)` with its controls (`sell_limit` null and `overbooking` 0 where none is set). */
    const get = (
      propertyId: string,
      roomTypeId: string,
      range: { readonly start_date: string; readonly end_date: string }
    ): Effect.Effect<ReadonlyArray<ControlsNight>, InvalidParameters | RoomTypeNotFound> =>
      Effect.gen(function*() {
        const dates = yield* Effect.fromResult(Rules.inventoryRange(range.start_date, range.end_date))
        const [type] = isUuid(roomTypeId)
          ? yield* sql`SELECT id FROM room_types WHERE property_id = ${propertyId} AND id = ${roomTypeId}`
          : []
        if (type === undefined) return yield* new RoomTypeNotFound({ message: `No room type ${roomTypeId}` })
        const rows = yield* sql<{ date: string; sell_limit: number | null; overbooking: number }>`
          SELECT to_char(night, 'YYYY-MM-DD') AS date, sell_limit, overbooking FROM inventory_nights
          WHERE room_type_id = ${roomTypeId} AND night >= ${range.start_date}::date AND night < ${range.end_date}::date`
        const byDate = new Map(rows.map((row) => [row.date, row]))
        return dates.map((date) => byDate.get(date) ?? { date, sell_limit: null, overbooking: 0 })
      }).pipe(Effect.catchTag("SqlError", Effect.die), withSpan("InventoryControls.get"))

    return { put, get } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
