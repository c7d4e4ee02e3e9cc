import { expect, layer } from "@effect/vitest"
import { BlockReleaser } from "@hotel/persistence/blocks/BlockReleaser"
import { type Events, NoAvailability } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { hold, importedHoldBody, importRoomTypes } from "../utils/booking.js"
import { availabilityOf, blockAction, blockBody, createBlock, getBlock, nightFigures } from "../utils/blocks.js"
import { expectFailure } from "../utils/client.js"
import type { TestApiService } from "../utils/TestServer.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// Release by the clock: `release_at` and `release_days_before` free a night's remaining units at the exact
// instant, whatever ran meanwhile; the releaser (run here by hand, as the server runs it every 5 seconds) only
// announces it: `availability.changed` for a definite block's freed nights, `block.released` once every night
// is released. The server runs on the TestClock.

const T0 = Date.parse("2031-04-01T10:00:00Z")

/** The property's events of the given types, oldest first, as `[type, data]`. */
const eventsOf = (api: TestApiService, key: string, types: ReadonlyArray<Events.EventType>) =>
  Effect.flatMap(api.clientFor(key), (client) => client.events.list({ query: { types, limit: 500 } })).pipe(
    Effect.map(({ data }) => data.map((event) => [event.type, event.data] as const))
  )

layer(TestApiLive)("block release", (it) => {
  it.effect("release_at frees every remaining unit at that instant; the releaser announces it once", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const releaser = yield* BlockReleaser
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 2 })
      const releaseAt = "2031-04-01T12:00:00Z"
      const range = { start_date: "2031-05-01", end_date: "2031-05-03" }
      const id = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 2, status: "definite", release_at: releaseAt, price: "90.00" }), { key })
      const roomType = imported.room_types.A
      const stay = importedHoldBody(imported, "A", guest, { check_in: "2031-05-01", check_out: "2031-05-02" })
      yield* TestClock.setTime(Date.parse(releaseAt) - 1)
      expect(yield* availabilityOf(api, roomType, "2031-05-01", "2031-05-01", { key })).toEqual([["2031-05-01", 2, 0]])
      yield* expectFailure(hold(api, stay, { key }), NoAvailability)
      expect(yield* availabilityOf(api, roomType, "2031-05-01", "2031-05-01", { key })).toEqual([["2031-05-01", 2, 0]])
      expect(yield* releaser.release()).toBe(0)

      yield* TestClock.setTime(Date.parse(releaseAt))
      const read = yield* getBlock(api, id, { key })
      expect(read.status).toBe("released")
      expect(nightFigures(read)).toEqual([["2031-05-01", 2, 0, 0, true], ["2031-05-02", 2, 0, 0, true]])
      expect(yield* availabilityOf(api, roomType, "2031-05-01", "2031-05-01", { key })).toEqual([["2031-05-01", 0, 2]])
      // Free for anyone, before any job ran; a pickup of a released block still gets its price.
      yield* hold(api, stay, { key })
      const picked = yield* hold(api, { ...stay, block_id: id }, { key })
      expect(picked.total).toBe("97.40")

      expect(yield* releaser.release()).toBe(1)
      expect(yield* releaser.release()).toBe(0)
      const events = yield* eventsOf(api, key, ["block.released", "availability.changed"])
      expect(events.filter(([type]) => type === "block.released").map(([, data]) => (data as { id: string }).id)).toEqual([id])
      // One when the definite block took the nights, one when their release freed them.
      const wholeRange = { room_type_id: roomType, start_date: "2031-05-01", end_date: "2031-05-03" }
      const oneNight = { ...wholeRange, end_date: "2031-05-02" }
      const changes = events.filter(([type]) => type === "availability.changed").map(([, data]) => data)
      expect(changes).toEqual([wholeRange, oneNight, oneNight, wholeRange])
    }).pipe(Effect.provide(BlockReleaser.layer)))

  it.effect("release_days_before frees each night at the property's local midnight that many days before it", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const releaser = yield* BlockReleaser
      yield* TestClock.setTime(T0)
      const { imported, key } = yield* importRoomTypes(api, { A: 2 })
      // Europe/Lisbon is UTC+1 in May: the night of 2031-05-10, 3 days before, releases at 2031-05-06T23:00:00Z.
      const id = yield* createBlock(api, blockBody(imported, "A", {
        start_date: "2031-05-10",
        end_date: "2031-05-12",
        units: 1,
        status: "definite",
        release_days_before: 3
      }), { key })
      yield* TestClock.setTime(Date.parse("2031-05-06T23:00:00Z") - 1)
      expect((yield* getBlock(api, id, { key })).nights.map((night) => night.released)).toEqual([false, false])
      expect(yield* releaser.release()).toBe(0)
      yield* TestClock.setTime(Date.parse("2031-05-06T23:00:00Z"))
      const first = yield* getBlock(api, id, { key })
      expect(nightFigures(first)).toEqual([["2031-05-10", 1, 0, 0, true], ["2031-05-11", 1, 0, 1, false]])
      expect(first.status).toBe("definite")
      expect(yield* availabilityOf(api, imported.room_types.A, "2031-05-10", "2031-05-11", { key })).toEqual([
        ["2031-05-10", 0, 2],
        ["2031-05-11", 1, 1]
      ])
      expect(yield* releaser.release()).toBe(1)
      const freed = yield* eventsOf(api, key, ["availability.changed", "block.released"])
      expect(freed.at(-1)).toEqual(["availability.changed", { room_type_id: imported.room_types.A, start_date: "2031-05-10", end_date: "2031-05-11" }])
      yield* TestClock.setTime(Date.parse("2031-05-07T23:00:00Z"))
      expect((yield* getBlock(api, id, { key })).status).toBe("released")
      expect(yield* releaser.release()).toBe(1)
      const last = yield* eventsOf(api, key, ["availability.changed", "block.released"])
      expect(last.slice(-2).map(([type]) => type)).toEqual(["availability.changed", "block.released"])
    }).pipe(Effect.provide(BlockReleaser.layer)))

  it.effect("a tentative block's nights read released after their release; confirming it takes only the others", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { imported, key } = yield* importRoomTypes(api, { A: 2 })
      const id = yield* createBlock(api, blockBody(imported, "A", {
        start_date: "2031-05-10",
        end_date: "2031-05-12",
        units: 2,
        release_days_before: 3
      }), { key })
      yield* TestClock.setTime(Date.parse("2031-05-06T23:00:00Z"))
      expect((yield* getBlock(api, id, { key })).nights.map((night) => night.released)).toEqual([true, false])
      // The released night needs no room: another definite block holds both rooms of it.
      yield* createBlock(api, blockBody(imported, "A", { start_date: "2031-05-10", end_date: "2031-05-11", units: 2, status: "definite" }), { key })
      const confirmed = yield* blockAction(api, id, "confirm", { key })
      expect(nightFigures(confirmed)).toEqual([["2031-05-10", 2, 0, 0, true], ["2031-05-11", 2, 0, 2, false]])
      expect(yield* availabilityOf(api, imported.room_types.A, "2031-05-10", "2031-05-11", { key })).toEqual([
        ["2031-05-10", 2, 0],
        ["2031-05-11", 2, 0]
      ])
    }))
})
