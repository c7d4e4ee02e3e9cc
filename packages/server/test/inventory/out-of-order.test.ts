import { expect, layer } from "@effect/vitest"
import {
  InsufficientScope,
  type Inventory,
  InvalidParameters,
  NoAvailability,
  OutOfOrderNotFound,
  OutOfOrderOverlap,
  RoomNotFound,
  RoomTypeNotFound,
  RoomUnavailable
} from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { confirm, hold, importedHoldBody, importRoomTypes } from "../utils/booking.js"
import { blockBody, createBlock } from "../utils/blocks.js"
import { expectFailure } from "../utils/client.js"
import { backInService, breakdown, outOfOrderPeriods, roomsOf, takeOutOfOrder } from "../utils/inventory.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { checkIn } from "../utils/stay.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// Rooms out of order: POST /rooms/{id}/out-of-order, GET /out-of-order, DELETE /out-of-order/{id}, through HTTP
// and Postgres: what they take from sale, their refusals, the breakdown of /availability, their events, and a
// check-in that never assigns a room out of order. The server runs on the TestClock.

const T0 = Date.parse("2031-05-01T10:00:00Z")
const period = { start_date: "2031-05-01", end_date: "2031-05-03" }

layer(TestApiLive)("rooms out of order", (it) => {
  it.effect("a period takes one room out of service on its nights: the breakdown shows it; DELETE puts it back", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { imported, key } = yield* importRoomTypes(api, { A: 2 })
      const roomType = imported.room_types.A
      const rooms = yield* roomsOf(api, roomType, { key })
      expect(rooms.map((room) => room.number)).toEqual(["A-1", "A-2"])
      const id = yield* takeOutOfOrder(api, rooms[0].id, { ...period, reason: "Broken shower" }, { key })
      // Out of order, the room is still listed.
      expect((yield* roomsOf(api, roomType, { key })).length).toBe(2)
      expect(yield* breakdown(api, roomType, "2031-05-02", "2031-05-03", { key })).toEqual([
        { date: "2031-05-02", rooms: 2, out_of_order: 1, sell_limit: null, overbooking: 0, taken: 0, blocked: 0, available: 1 },
        { date: "2031-05-03", rooms: 2, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 0, blocked: 0, available: 2 }
      ])
      const client = yield* api.clientFor(key)
      const listed = yield* client.inventory.listOutOfOrder({ query: { start_date: "2031-05-02", end_date: "2031-05-03" } })
      expect(listed.data).toEqual([{
        id,
        room_id: rooms[0].id,
        room_type_id: roomType,
        ...period,
        reason: "Broken shower",
        created_at: new Date(T0).toISOString()
      }])
      const after = yield* client.inventory.listOutOfOrder({ query: { start_date: "2031-05-03", end_date: "2031-05-10" } })
      expect(after.data).toEqual([])
      expect(yield* backInService(api, id, { key })).toEqual({ out_of_order_id: id, deleted: true })
      expect((yield* breakdown(api, roomType, "2031-05-02", "2031-05-02", { key }))[0]).toMatchObject({ out_of_order: 0, available: 2 })
      expectError(yield* api.delete(`/out-of-order/${id}`, { key }), 404, "not_found", "out_of_order_not_found")
      const { data } = yield* client.events.list({ query: { types: ["inventory.changed", "availability.changed"] } })
      const change = { room_type_id: roomType, ...period }
      expect(data.map((event) => [event.type, event.data])).toEqual([
        ["inventory.changed", change],
        ["availability.changed", change],
        ["inventory.changed", change],
        ["availability.changed", change]
      ])
    }))

  it.effect("refusals: unknown room, overlap, a checked-in guest, nights that could no longer cover what is taken", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 2 })
      const roomType = imported.room_types.A
      const [first, second] = yield* roomsOf(api, roomType, { key })
      const post = (roomId: string, body: unknown) => api.post(`/rooms/${roomId}/out-of-order`, body, { key })
      const take = (roomId: string, body: Inventory.OutOfOrderCreate) => takeOutOfOrder(api, roomId, body, { key })
      yield* expectFailure(take(missingId, period), RoomNotFound)
      expectError(yield* post("nope", period), 404, "not_found", "room_not_found")
      yield* expectFailure(take(first.id, { ...period, end_date: "2031-05-01" }), InvalidParameters, "end_date")
      yield* expectFailure(take(first.id, { start_date: "2031-01-01", end_date: "2032-01-03" }), InvalidParameters, "end_date")
      expectInvalid(yield* post(first.id, { ...period, start_date: "2031-13-01" }), "start_date")
      yield* takeOutOfOrder(api, first.id, period, { key })
      expectError(yield* post(first.id, { start_date: "2031-05-02", end_date: "2031-05-05" }), 409, "conflict", "out_of_order_overlap")
      yield* expectFailure(takeOutOfOrder(api, first.id, period, { key }), OutOfOrderOverlap)
      // The other room holds the one stay left: it cannot go out of order too.
      const stay = yield* hold(api, importedHoldBody(imported, "A", guest, { check_in: "2031-05-01", check_out: "2031-05-02" }), { key })
      yield* expectFailure(take(second.id, period), NoAvailability)
      // Checked in to that room: room_unavailable, even on nights nothing else is taken.
      yield* confirm(api, stay.reservation_id, {}, { key })
      const checkedIn = yield* checkIn(api, stay.reservation_id, { room_id: second.id }, { key })
      expect(checkedIn.room_id).toBe(second.id)
      yield* expectFailure(take(second.id, { start_date: "2031-05-01", end_date: "2031-05-02" }), RoomUnavailable)
      yield* expectFailure(take(second.id, { start_date: "2031-05-01", end_date: "2031-05-09" }), RoomUnavailable)
      // A definite block's remaining units count as taken.
      yield* createBlock(api, blockBody(imported, "A", { start_date: "2031-06-01", end_date: "2031-06-02", units: 2, status: "definite" }), { key })
      yield* expectFailure(take(second.id, { start_date: "2031-06-01", end_date: "2031-06-02" }), NoAvailability)
      expectInvalid(yield* api.get("/out-of-order?start_date=2031-05-02", { key }), "end_date")
      yield* expectFailure(outOfOrderPeriods(api, { start_date: "2031-05-02", end_date: "2031-05-02" }, { key }), InvalidParameters, "end_date")
      const unknownType = { start_date: "2031-05-02", end_date: "2031-05-03", room_type_id: missingId }
      yield* expectFailure(outOfOrderPeriods(api, unknownType, { key }), RoomTypeNotFound)
      yield* expectFailure(backInService(api, missingId, { key }), OutOfOrderNotFound)
      // Of all these requests, only the first period was written.
      const written = yield* outOfOrderPeriods(api, { start_date: "2031-05-01", end_date: "2031-06-02" }, { key })
      expect(written.map((p) => [p.room_id, p.start_date, p.end_date])).toEqual([[first.id, period.start_date, period.end_date]])
    }))

  it.effect("check-in never assigns a room out of order on the arrival night; asking for it is room_unavailable", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 2 })
      const [first, second] = yield* roomsOf(api, imported.room_types.A, { key })
      yield* takeOutOfOrder(api, first.id, { start_date: "2031-05-01", end_date: "2031-05-02" }, { key })
      const body = importedHoldBody(imported, "A", guest, { check_in: "2031-05-01", check_out: "2031-05-02" })
      const stay = yield* hold(api, body, { key })
      yield* confirm(api, stay.reservation_id, {}, { key })
      yield* expectFailure(checkIn(api, stay.reservation_id, { room_id: first.id }, { key }), RoomUnavailable)
      const assigned = yield* checkIn(api, stay.reservation_id, {}, { key })
      expect(assigned.status).toBe("checked_in")
      expect(assigned.room_id).toBe(second.id)
      // The only room in service is sold: nothing is left to sell that night.
      yield* expectFailure(hold(api, body, { key }), NoAvailability)
    }))

  it.effect("scopes: inventory:read lists, inventory:write writes", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 1 })
      const [room] = yield* roomsOf(api, imported.room_types.A, { key })
      const reader = yield* api.createKey({ propertyId: imported.property_id, scopes: ["inventory:read"] })
      yield* expectFailure(takeOutOfOrder(api, room.id, period, { key: reader }), InsufficientScope)
      const night = { start_date: "2031-05-01", end_date: "2031-05-02" }
      expect(yield* outOfOrderPeriods(api, night, { key: reader })).toEqual([])
      const writer = yield* api.createKey({ propertyId: imported.property_id, scopes: ["inventory:write"] })
      yield* expectFailure(outOfOrderPeriods(api, night, { key: writer }), InsufficientScope)
      expect(yield* takeOutOfOrder(api, room.id, period, { key: writer })).toMatch(/^[0-9a-f-]{36}$/)
    }))
})
