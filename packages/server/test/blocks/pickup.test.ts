import { expect, layer } from "@effect/vitest"
import { BlockInUse, BlockNotDefinite, BlockNotFound, InvalidParameters, NoAvailability, RatePlanNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { cancel, confirm, getReservation, hold, importedHoldBody, importRoomTypes } from "../utils/booking.js"
import { availabilityOf, blockAction, blockBody, createBlock, getBlock, nightFigures } from "../utils/blocks.js"
import { book, bookingBody, importedRoom } from "../utils/bookings.js"
import { expectFailure } from "../utils/client.js"
import { expectError, missingId } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// Pickups: `block_id` on POST /holds and on a booking's rooms, through the one hold path. The block's units first,
// general inventory for every other night; the block's price; the plan's visibility waived; a cancelled or
// lapsed pickup returns its unit. The server runs on the TestClock (a hold's 15 minutes are crossed by moving it).

const range = { start_date: "2031-05-01", end_date: "2031-05-03" }
const T0 = Date.parse("2031-01-10T10:00:00Z")

layer(TestApiLive)("block pickups", (it) => {
  it.effect("a pickup takes the block's units, then general inventory; an ordinary hold never takes blocked units", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 3 })
      const blockId = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 2, status: "definite" }), { key })
      const stay = { check_in: "2031-05-01", check_out: "2031-05-03" }
      const ordinary = importedHoldBody(imported, "A", guest, stay)
      const pickup = { ...ordinary, block_id: blockId }
      yield* hold(api, ordinary, { key })
      yield* expectFailure(hold(api, ordinary, { key }), NoAvailability)
      const first = yield* hold(api, pickup, { key })
      expect((yield* getReservation(api, first.reservation_id, { key })).block_id).toBe(blockId)
      yield* hold(api, pickup, { key })
      expect(nightFigures(yield* getBlock(api, blockId, { key }))).toEqual([
        ["2031-05-01", 2, 2, 0, false],
        ["2031-05-02", 2, 2, 0, false]
      ])
      // Used up, and nothing free for general sale: the pickup is refused like any hold.
      yield* expectFailure(hold(api, pickup, { key }), NoAvailability)
      expect(yield* availabilityOf(api, imported.room_types.A, "2031-05-01", "2031-05-02", { key })).toEqual([
        ["2031-05-01", 0, 0],
        ["2031-05-02", 0, 0]
      ])
    }))

  it.effect("a pickup's stay may reach beyond the block: those nights need general inventory", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 1 })
      const blockId = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 1, status: "definite" }), { key })
      // The one room is set aside on the block's nights; the night after it is free.
      const beyond = importedHoldBody(imported, "A", guest, { check_in: "2031-05-02", check_out: "2031-05-04", block_id: blockId })
      yield* hold(api, beyond, { key })
      const other = importedHoldBody(imported, "A", guest, { check_in: "2031-05-03", check_out: "2031-05-04" })
      yield* expectFailure(hold(api, other, { key }), NoAvailability)
      expect(nightFigures(yield* getBlock(api, blockId, { key }))).toEqual([
        ["2031-05-01", 1, 0, 1, false],
        ["2031-05-02", 1, 1, 0, false]
      ])
    }))

  it.effect("the block's price replaces the plan's nightly price on its nights; the plan's visibility is waived", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 3 })
      const blockId = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 2, status: "definite", price: "80.00" }), { key })
      const stay = { check_in: "2031-04-30", check_out: "2031-05-03" }
      // One adult, three nights at 100.00: 300.00 + 6% VAT + 3 × 2.00 city tax.
      expect((yield* hold(api, importedHoldBody(imported, "A", guest, stay), { key })).total).toBe("324.00")
      // The pickup: 100.00 + 80.00 + 80.00 = 260.00, + 15.60 VAT + 6.00 city tax.
      const picked = yield* hold(api, importedHoldBody(imported, "A", guest, { ...stay, block_id: blockId }), { key })
      expect(picked.total).toBe("281.60")
      // A plan that needs a promo code is hidden from an ordinary hold, not from a pickup.
      const planId = imported.rate_plans["BAR-A"]
      const client = yield* api.clientFor(key)
      const updated = yield* client.ratePlanWrites.update({ params: { id: planId }, payload: { requires_promo_code: true }, headers: {} })
      expect(updated).toEqual({ rate_plan_id: planId, updated: true })
      yield* expectFailure(hold(api, importedHoldBody(imported, "A", guest, stay), { key }), RatePlanNotFound)
      yield* hold(api, importedHoldBody(imported, "A", guest, { ...stay, block_id: blockId }), { key })
    }))

  it.effect("refusals: unknown block, another room type or plan, a block not definite", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 2, B: 2 })
      const stay = { check_in: "2031-05-01", check_out: "2031-05-02" }
      const tentative = yield* createBlock(api, blockBody(imported, "A", range), { key })
      const body = (over: Record<string, unknown>) => ({ ...importedHoldBody(imported, "A", guest, stay), ...over })
      yield* expectFailure(hold(api, importedHoldBody(imported, "A", guest, { ...stay, block_id: missingId }), { key }), BlockNotFound)
      expectError(yield* api.post("/holds", body({ block_id: "nope" }), { key }), 400, "invalid_request", "invalid_parameters", "block_id")
      const otherType = importedHoldBody(imported, "B", guest, { ...stay, block_id: tentative })
      yield* expectFailure(hold(api, otherType, { key }), InvalidParameters, "room_type_id")
      expectError(yield* api.post("/holds", body({ block_id: tentative }), { key }), 409, "conflict", "block_not_definite")
      yield* blockAction(api, tentative, "cancel", { key })
      yield* expectFailure(hold(api, importedHoldBody(imported, "A", guest, { ...stay, block_id: tentative }), { key }), BlockNotDefinite)
      // A booking names the room: 400 with its path, other refusals in the message.
      const rooms = [importedRoom(imported, "A"), importedRoom(imported, "B", { block_id: tentative })]
      yield* expectFailure(book(api, bookingBody(guest, rooms, stay), { key }), InvalidParameters, "rooms[1].room_type_id")
      const unknown = bookingBody(guest, [importedRoom(imported, "A", { block_id: missingId })], stay)
      const missing = yield* expectFailure(book(api, unknown, { key }), BlockNotFound)
      expect(missing.message).toContain("rooms[0]")
      const otherPlan = importedHoldBody(imported, "B", guest, { ...stay, block_id: tentative, room_type_id: imported.room_types.A })
      yield* expectFailure(hold(api, otherPlan, { key }), InvalidParameters, "rate_plan_id")
    }))

  it.effect("a booking's rooms pick up from the block together; cancelled or lapsed pickups return their units", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 2 })
      const blockId = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 2, status: "definite" }), { key })
      const stay = { check_in: "2031-05-01", check_out: "2031-05-03" }
      const room = importedRoom(imported, "A", { block_id: blockId })
      const booking = yield* book(api, bookingBody(guest, [room, room], stay), { key })
      expect(nightFigures(yield* getBlock(api, blockId, { key })).map(([, , picked]) => picked)).toEqual([2, 2])
      // Lowering a night below its pickups, or cancelling a block with live pickups, is block_in_use.
      expectError(yield* api.patch(`/blocks/${blockId}`, { units: 1 }, { key }), 409, "conflict", "block_in_use")
      yield* expectFailure(blockAction(api, blockId, "cancel", { key }), BlockInUse)

      const [one, two] = booking.reservations
      yield* cancel(api, one.reservation_id, {}, { key })
      expect(nightFigures(yield* getBlock(api, blockId, { key })).map(([, , picked, remaining]) => [picked, remaining])).toEqual([[1, 1], [1, 1]])
      // The other hold lapses after 15 minutes: its unit is back at that instant, no job needed.
      yield* TestClock.setTime(T0 + 15 * 60_000)
      expect((yield* getReservation(api, two.reservation_id, { key })).status).toBe("cancelled")
      expect(nightFigures(yield* getBlock(api, blockId, { key })).map(([, , picked, remaining]) => [picked, remaining])).toEqual([[0, 2], [0, 2]])
      expect((yield* blockAction(api, blockId, "cancel", { key })).status).toBe("cancelled")
      expect(yield* availabilityOf(api, imported.room_types.A, "2031-05-01", "2031-05-01", { key })).toEqual([["2031-05-01", 0, 2]])
    }))

  it.effect("a pickup is confirmed on a night at capacity: its own unit counts for it", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 1 })
      const blockId = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 1, status: "definite" }), { key })
      const picked = yield* hold(api, importedHoldBody(imported, "A", guest, { check_in: "2031-05-01", check_out: "2031-05-02", block_id: blockId }), { key })
      const confirmed = yield* confirm(api, picked.reservation_id, { payment_reference: "pay-pickup" }, { key })
      expect(confirmed.status).toBe("confirmed")
      expect((yield* getReservation(api, picked.reservation_id, { key })).status).toBe("confirmed")
    }))
})
