import * as SqlClient from "effect/sql/SqlClient"
import {
  type InvalidParameters,
  Inventory as Rules,
  isUuid,
  NoAvailability,
  OutOfOrderNotFound,
  OutOfOrderOverlap,
  RoomNotFound,
  RoomTypeNotFound,
  RoomUnavailable
} from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { EventOutbox } from "../events/EventOutbox.js"
import { Inventory } from "./Inventory.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"
import { inventoryEvents } from "./events.js"
import { lockStay } from "../booking/stayLocks.js"

// Periods out of order: `POST /rooms/{id}/out-of-order`, `DELETE /out-of-order/{id}`, `GET /out-of-order`. A
// write locks the room's type row (`FOR NO KEY UPDATE`, the lock every hold, booking room, change, confirm,
// check-in and block write of the type takes), so a period and a sale of its type never interleave: the
// period's nights are counted against what is taken there after it is written, under that lock, and refused
// (rolled back) when the rooms left in service, with the night's overbooking, no longer cover it. It takes that
// lock alone (`lockStay`), so it never waits on a lock while holding one a sale needs first.

export interface OutOfOrderRow {
  readonly id: string
  readonly room_id: string
  readonly room_type_id: string
  readonly start_date: string
  readonly end_date: string
  readonly reason: string | null
  readonly created_at: Date
}

export class OutOfOrder extends Context.Service<OutOfOrder>()("@hotel/persistence/inventory/OutOfOrder", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inventory = yield* Inventory
    const clock = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const lockType = (propertyId: string, roomTypeId: string) => lockStay(sql, propertyId, { roomTypes: [roomTypeId] })

    /** The refusals that need the stored periods and stays, in their order: overlap, then a checked-in guest. */
    const checkRoomFree = (roomId: string, start: string, end: string) =>
      Effect.gen(function*() {
        const [clash] = yield* sql<{ overlap: boolean; occupied: boolean }>`
          SELECT EXISTS (SELECT 1 FROM out_of_order o WHERE o.room_id = ${roomId}
                           AND o.start_date < ${end}::date AND o.end_date > ${start}::date) AS overlap,
                 EXISTS (SELECT 1 FROM accommodations a WHERE a.room_id = ${roomId} AND a.status = 'checked_in'
                           AND a.check_in_date < ${end}::date AND a.check_out_date > ${start}::date) AS occupied`
        if (clash.overlap) return yield* new OutOfOrderOverlap({ message: "The room already has a period out of order on one of these nights" })
        if (clash.occupied) return yield* new RoomUnavailable({ message: "A checked-in guest occupies the room on one of these nights" })
      })

    /** Every night of the range must still cover what is taken and set aside there. */
    const requireCovered = (propertyId: string, roomTypeId: string, start: string, end: string, now: Date) =>
      Effect.gen(function*() {
        const [stock] = yield* inventory.available(propertyId, { roomTypeId, from: start, to: end, now })
        const short = (stock?.nights ?? []).find((night) => !Rules.coversTaken(night))
        if (short !== undefined) {
          return yield* new NoAvailability({
            message: `On ${short.date} the rooms left in service could no longer cover the ${short.taken + short.blocked} taken or blocked`
          })
        }
      })

    const create = (propertyId: string, roomId: string, input: Rules.OutOfOrderCreate) =>
      Effect.gen(function*() {
        const now = yield* clock
        yield* Effect.fromResult(Rules.inventoryRange(input.start_date, input.end_date))
        const [room] = isUuid(roomId)
          ? yield* sql<{ id: string; room_type_id: string }>`
              SELECT id, room_type_id FROM rooms WHERE property_id = ${propertyId} AND id = ${roomId} AND NOT retired`
          : []
        if (room === undefined) return yield* new RoomNotFound({ message: `No room ${roomId}` })
        yield* lockType(propertyId, room.room_type_id)
        yield* checkRoomFree(room.id, input.start_date, input.end_date)
        const [row] = yield* sql<{ id: string }>`
          INSERT INTO out_of_order (property_id, room_id, start_date, end_date, reason, created_at)
          VALUES (${propertyId}, ${room.id}, ${input.start_date}, ${input.end_date}, ${input.reason ?? null}, ${now})
          RETURNING id`
        yield* requireCovered(propertyId, room.room_type_id, input.start_date, input.end_date, now)
        yield* Effect.flatMap(EventOutbox, (outbox) =>
          outbox.append(propertyId, inventoryEvents(room.room_type_id, input.start_date, input.end_date)))
        return { id: row.id }
      }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan("OutOfOrder.create"))

    const remove = (propertyId: string, id: string) =>
      Effect.gen(function*() {
        const notFound = new OutOfOrderNotFound({ message: `No out-of-order period ${id}` })
        if (!isUuid(id)) return yield* notFound
        const [found] = yield* sql<{ room_type_id: string }>`
          SELECT r.room_type_id FROM out_of_order o JOIN rooms r ON r.id = o.room_id
          WHERE o.property_id = ${propertyId} AND o.id = ${id}`
        if (found === undefined) return yield* notFound
        yield* lockType(propertyId, found.room_type_id)
        const [deleted] = yield* sql<{ start_date: string; end_date: string }>`
          DELETE FROM out_of_order WHERE id = ${id}
          RETURNING to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(end_date, 'YYYY-MM-DD') AS end_date`
        if (deleted === undefined) return yield* notFound
        yield* Effect.flatMap(EventOutbox, (outbox) =>
          outbox.append(propertyId, inventoryEvents(found.room_type_id, deleted.start_date, deleted.end_date)))
      }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan("OutOfOrder.remove"))

    /** The periods sharing a night with `[start, end)`, by `start_date`; 404 for an unknown room type. */
    const list = (
      propertyId: string,
      query: { readonly start_date: string; readonly end_date: string; readonly room_type_id?: string | undefined }
    ): Effect.Effect<ReadonlyArray<OutOfOrderRow>, InvalidParameters | RoomTypeNotFound> =>
      Effect.gen(function*() {
        if (query.end_date <= query.start_date) yield* Effect.fromResult(Rules.inventoryRange(query.start_date, query.end_date, Number.MAX_SAFE_INTEGER))
        const roomTypeId = query.room_type_id ?? null
        if (roomTypeId !== null) {
          const [type] = yield* sql`SELECT id FROM room_types WHERE property_id = ${propertyId} AND id = ${roomTypeId}`
          if (type === undefined) return yield* new RoomTypeNotFound({ message: `No room type ${roomTypeId}` })
        }
        return yield* sql<OutOfOrderRow>`
          SELECT o.id, o.room_id, r.room_type_id, to_char(o.start_date, 'YYYY-MM-DD') AS start_date,
                 to_char(o.end_date, 'YYYY-MM-DD') AS end_date, o.reason, o.created_at
          FROM out_of_order o JOIN rooms r ON r.id = o.room_id
          WHERE o.property_id = ${propertyId} AND o.start_date < ${query.end_date}::date
            AND o.end_date > ${query.start_date}::date
            AND (${roomTypeId}::uuid IS NULL OR r.room_type_id = ${roomTypeId}::uuid)
          ORDER BY o.start_date, o.created_at, o.id`
      }).pipe(Effect.catchTag("SqlError", Effect.die), withSpan("OutOfOrder.list"))

    return { create, remove, list } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide(Inventory.layer))
}
