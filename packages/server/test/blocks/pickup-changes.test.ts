import { expect, layer } from "@effect/vitest"
import { NoAvailability } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { getReservation, hold, importedHoldBody, importRoomTypes } from "../utils/booking.js"
import { blockBody, createBlock, getBlock } from "../utils/blocks.js"
import { change, changeQuote } from "../utils/changes.js"
import { expectFailure } from "../utils/client.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// Changes of a pickup (PATCH /reservations/{id} and its change quote): while its room type and plan stay the
// block's, it keeps its block (the block's units count for it, the block's price on the block's nights); moved
// to another room type or plan it becomes an ordinary reservation and its units return to the block.

const T0 = Date.parse("2031-01-10T10:00:00Z")
const range = { start_date: "2031-05-01", end_date: "2031-05-03" }

layer(TestApiLive)("changes of pickups", (it) => {
  it.effect("a longer stay on the block's type and plan keeps the block: its units count, at the block's price", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 1 })
      const blockId = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 1, status: "definite", price: "80.00" }), { key })
      const picked = yield* hold(api, importedHoldBody(imported, "A", guest, { check_in: "2031-05-01", check_out: "2031-05-02", block_id: blockId }), { key })
      // The second night is set aside for the block, and the block's own: the quote and the change may take it.
      const quote = yield* changeQuote(api, picked.reservation_id, { check_out: "2031-05-03" }, { key })
      expect(quote.bookable).toBe(true)
      expect(quote.nights.map((night) => [night.date, night.amount, night.kept])).toEqual([
        ["2031-05-01", "80.00", true],
        ["2031-05-02", "80.00", false]
      ])
      const changed = yield* change(api, picked.reservation_id, { check_out: "2031-05-04" }, { key })
      expect(changed.block_id).toBe(blockId)
      // 80.00 + 80.00 on the block's nights, 100.00 after it; + 6% VAT + 3 × 2.00 city tax.
      expect(changed.total).toBe("281.60")
      expect((yield* getBlock(api, blockId, { key })).nights.map((night) => [night.picked_up, night.remaining])).toEqual([[1, 0], [1, 0]])
    }))

  it.effect("moved to another room type or plan, a pickup leaves its block: the units return, general inventory counts", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 1, B: 1 })
      const blockId = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 1, status: "definite", price: "80.00" }), { key })
      const stay = { check_in: "2031-05-01", check_out: "2031-05-02" }
      const picked = yield* hold(api, importedHoldBody(imported, "A", guest, { ...stay, block_id: blockId }), { key })
      const moved = yield* change(api, picked.reservation_id, {
        room_type_id: imported.room_types.B,
        rate_plan_id: imported.rate_plans["BAR-B"]
      }, { key })
      expect(moved.block_id).toBeNull()
      expect(moved.total).toBe("108.00")
      expect((yield* getBlock(api, blockId, { key })).nights[0]).toMatchObject({ picked_up: 0, remaining: 1 })
      // Back to A as an ordinary reservation: A's one room is set aside for the block, so there is none.
      const back = change(api, picked.reservation_id, {
        room_type_id: imported.room_types.A,
        rate_plan_id: imported.rate_plans["BAR-A"]
      }, { key })
      yield* expectFailure(back, NoAvailability)
      expect((yield* getReservation(api, picked.reservation_id, { key })).room_type_id).toBe(imported.room_types.B)
    }))
})
