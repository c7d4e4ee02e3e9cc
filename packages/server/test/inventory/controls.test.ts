import { expect, layer } from "@effect/vitest"
import { InvalidParameters, type Inventory, NoAvailability, RoomTypeNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { confirm, hold, importedHoldBody, importRoomTypes } from "../utils/booking.js"
import { blockBody, createBlock } from "../utils/blocks.js"
import { change } from "../utils/changes.js"
import { expectFailure } from "../utils/client.js"
import { breakdown, putControls } from "../utils/inventory.js"
import { expectInvalid, missingId } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// Sell limits and overbooking: PUT and GET /room-types/{id}/inventory, and the capacity rule they feed, seen
// by holds, bookings, changes, confirms, definite blocks, /rates and /availability. On the TestClock.

const T0 = Date.parse("2031-04-01T10:00:00Z")
const night = { check_in: "2031-05-02", check_out: "2031-05-03" }

layer(TestApiLive)("sell limits and overbooking", (it) => {
  it.effect("PUT sets the fields it carries on the chosen weekdays; GET reads each night", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { imported, key } = yield* importRoomTypes(api, { A: 3 })
      const roomType = imported.room_types.A
      // 2031-05-04 is a Sunday.
      const range = { start_date: "2031-05-04", end_date: "2031-05-11" }
      expect(yield* putControls(api, roomType, { ...range, days: ["sat", "sun"], sell_limit: 1 }, { key })).toBe(2)
      expect(yield* putControls(api, roomType, { ...range, overbooking: 1 }, { key })).toBe(7)
      const client = yield* api.clientFor(key)
      const read = yield* client.inventory.getControls({ params: { id: roomType }, query: { start_date: "2031-05-03", end_date: "2031-05-06" } })
      expect(read).toEqual({
        room_type_id: roomType,
        nights: [
          { date: "2031-05-03", sell_limit: null, overbooking: 0 },
          { date: "2031-05-04", sell_limit: 1, overbooking: 1 },
          { date: "2031-05-05", sell_limit: null, overbooking: 1 }
        ]
      })
      // null removes the limit, 0 the overbooking; the other field stays.
      yield* putControls(api, roomType, { start_date: "2031-05-04", end_date: "2031-05-05", sell_limit: null }, { key })
      yield* putControls(api, roomType, { start_date: "2031-05-05", end_date: "2031-05-06", overbooking: 0 }, { key })
      const again = yield* client.inventory.getControls({ params: { id: roomType }, query: { start_date: "2031-05-04", end_date: "2031-05-06" } })
      expect(again.nights).toEqual([
        { date: "2031-05-04", sell_limit: null, overbooking: 1 },
        { date: "2031-05-05", sell_limit: null, overbooking: 0 }
      ])
      const { data } = yield* client.events.list({ query: { types: ["inventory.changed"] } })
      expect(data.map((event) => event.data)).toContainEqual({ room_type_id: roomType, ...range })
    }))

  it.effect("refusals of the PUT and the GET name the field", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 3 })
      const path = `/room-types/${imported.room_types.A}/inventory`
      const put = (body: unknown) => api.request("PUT", path, { body, key })
      // The rules between fields and against the room type reach the server; field formats are the wire's (raw).
      const refused = (body: Inventory.InventoryPut, param: string) =>
        expectFailure(putControls(api, imported.room_types.A, body, { key }), InvalidParameters, param)
      const client = yield* api.clientFor(key)
      const controls = (id: string, query: typeof Inventory.InventoryRangeParams.Type) => client.inventory.getControls({ params: { id }, query })
      const range = { start_date: "2031-05-04", end_date: "2031-05-11" }
      yield* refused({ ...range, sell_limit: 4 }, "sell_limit")
      expectInvalid(yield* put({ ...range, sell_limit: -1 }), "sell_limit")
      yield* refused({ ...range, overbooking: 4 }, "overbooking")
      expectInvalid(yield* put({ ...range, overbooking: null }), "overbooking")
      yield* refused(range, "sell_limit")
      expectInvalid(yield* put({ ...range, days: ["sun", "funday"], sell_limit: 1 }), "days[1]")
      yield* refused({ ...range, end_date: "2031-05-04", sell_limit: 1 }, "end_date")
      yield* refused({ start_date: "2031-01-01", end_date: "2032-01-03", sell_limit: 1 }, "end_date")
      yield* expectFailure(putControls(api, missingId, { ...range, sell_limit: 1 }, { key }), RoomTypeNotFound)
      yield* expectFailure(controls(missingId, { start_date: "2031-05-04", end_date: "2031-05-05" }), RoomTypeNotFound)
      yield* expectFailure(controls(imported.room_types.A, { start_date: "2031-05-04", end_date: "2031-05-04" }), InvalidParameters, "end_date")
      expectInvalid(yield* api.get(`${path}?start_date=2031-05-04`, { key }), "end_date")
      // No refusal set anything.
      expect((yield* controls(imported.room_types.A, { start_date: "2031-05-04", end_date: "2031-05-05" })).nights)
        .toEqual([{ date: "2031-05-04", sell_limit: null, overbooking: 0 }])
      // The PUT takes an Idempotency-Key like a PATCH: the same key replays the stored answer.
      const headers = { "idempotency-key": `inv-${imported.property_id}` }
      const first = yield* api.request("PUT", path, { body: { ...range, sell_limit: 2 }, key, headers })
      const replay = yield* api.request("PUT", path, { body: { ...range, sell_limit: 2 }, key, headers })
      expect([first.status, replay.status, replay.headers.get("idempotent-replayed")]).toEqual([200, 200, "true"])
    }))

  it.effect("a sell limit stops sales at it; lowering capacity below what is taken cancels nothing, and confirms go on", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 3 })
      const roomType = imported.room_types.A
      const body = importedHoldBody(imported, "A", guest, night)
      const first = yield* hold(api, body, { key })
      const second = yield* hold(api, body, { key })
      yield* putControls(api, roomType, { start_date: "2031-05-02", end_date: "2031-05-03", sell_limit: 1 }, { key })
      expect(yield* breakdown(api, roomType, "2031-05-02", "2031-05-02", { key })).toEqual([
        { date: "2031-05-02", rooms: 3, out_of_order: 0, sell_limit: 1, overbooking: 0, taken: 2, blocked: 0, available: 0 }
      ])
      yield* expectFailure(hold(api, body, { key }), NoAvailability)
      const client = yield* api.clientFor(key)
      const rates = yield* client.rates.rates({ query: { ...night, adults: 1, room_type_id: roomType, include_unavailable: true } })
      expect(rates.data.map((offer) => offer.reasons)).toEqual([["sold_out"]])
      // Both live holds keep their night: their confirms are not refused.
      yield* confirm(api, first.reservation_id, {}, { key })
      yield* confirm(api, second.reservation_id, {}, { key })
      // A definite block needs capacity too.
      const block = blockBody(imported, "A", { start_date: "2031-05-02", end_date: "2031-05-03", units: 1, status: "definite" })
      yield* expectFailure(createBlock(api, block, { key }), NoAvailability)
    }))

  it.effect("overbooking sells beyond the rooms; a change counts nights by the same rule", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 1 })
      const roomType = imported.room_types.A
      const body = importedHoldBody(imported, "A", guest, night)
      yield* hold(api, body, { key })
      yield* expectFailure(hold(api, body, { key }), NoAvailability)
      yield* putControls(api, roomType, { start_date: "2031-05-02", end_date: "2031-05-04", overbooking: 1 }, { key })
      const extra = yield* hold(api, body, { key })
      yield* expectFailure(hold(api, body, { key }), NoAvailability)
      expect((yield* breakdown(api, roomType, "2031-05-02", "2031-05-03", { key })).map((n) => [n.taken, n.available])).toEqual([[2, 0], [0, 2]])
      // A change to the next night: one room and one overbooked are free there, the night it leaves counts as its own.
      const moved = yield* change(api, extra.reservation_id, { check_in: "2031-05-03", check_out: "2031-05-04" }, { key })
      expect(moved.check_in_date).toBe("2031-05-03")
      // Nothing for sale on 05-03 and 05-04 now: the night the hold holds stays its own, a night it does not is refused.
      yield* putControls(api, roomType, { start_date: "2031-05-03", end_date: "2031-05-05", sell_limit: 0, overbooking: 0 }, { key })
      yield* expectFailure(change(api, extra.reservation_id, { check_out: "2031-05-05" }, { key }), NoAvailability)
      expect((yield* change(api, extra.reservation_id, { adults: 2 }, { key })).adults).toBe(2)
    }))

  it.effect("holds sold through overbooking keep their nights when it is lowered, a changed hold too", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 1 })
      const roomType = imported.room_types.A
      const holdOn = (checkIn: string, checkOut: string) =>
        hold(api, importedHoldBody(imported, "A", guest, { check_in: checkIn, check_out: checkOut }), { key })
      // The room, both nights, before any overbooking; then one overbooked hold on each night.
      const first = yield* holdOn("2031-05-02", "2031-05-04")
      yield* putControls(api, roomType, { start_date: "2031-05-02", end_date: "2031-05-05", overbooking: 1 }, { key })
      const extra = yield* holdOn("2031-05-02", "2031-05-03")
      // A hold moved by a change (from a night without overbooking) takes its new night under the overbooking there.
      const moved = yield* holdOn("2031-05-06", "2031-05-07")
      yield* change(api, moved.reservation_id, { check_in: "2031-05-03", check_out: "2031-05-04" }, { key })
      // Overbooking off: nothing more is sold, and every live hold keeps what it took, the first one included.
      yield* putControls(api, roomType, { start_date: "2031-05-02", end_date: "2031-05-05", overbooking: 0 }, { key })
      const nights = yield* breakdown(api, roomType, "2031-05-02", "2031-05-03", { key })
      expect(nights.map((n) => [n.taken, n.available])).toEqual([[2, 0], [2, 0]])
      yield* expectFailure(holdOn("2031-05-02", "2031-05-03"), NoAvailability)
      for (const held of [first, extra, moved]) {
        expect((yield* confirm(api, held.reservation_id, {}, { key })).status).toBe("confirmed")
      }
    }))
})
