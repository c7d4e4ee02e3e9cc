import { expect, layer } from "@effect/vitest"
import type { PropertyImportResult } from "@hotel/persistence/property/PropertyImport"
import * as Effect from "effect/Effect"
import { race, tally } from "../utils/concurrency.js"
import { importedHoldBody, importRoomTypes, newGuest } from "../utils/booking.js"
import { bookingBody, importedRoom } from "../utils/bookings.js"
import type { HotelClient } from "../utils/client.js"
import { putControls, roomsOf, takeOutOfOrder } from "../utils/inventory.js"
import { TestApi, TestApiLive, type TestApiService } from "../utils/TestServer.js"

// The capacity rule under REAL concurrent HTTP requests against Postgres, on a night brought to its capacity by
// overbooking (on) and by a sell limit and a room out of order (off): exactly as many sales as the capacity win.

const stay = { check_in: "2031-08-01", check_out: "2031-08-02" }
const nights = { start_date: "2031-08-01", end_date: "2031-08-02" }

const holdsFor = (api: TestApiService, client: HotelClient, imported: PropertyImportResult, count: number) =>
  Effect.gen(function*() {
    const guests = yield* Effect.forEach(Array.from({ length: count }), () => newGuest(api, imported.property_id))
    return guests.map((guest) => client.holds.create({ headers: {}, payload: importedHoldBody(imported, "A", guest, stay) }))
  })

const takenOn = (api: TestApiService, imported: PropertyImportResult) =>
  api.sql<{ taken: number }>`
    SELECT count(*)::int AS taken FROM reservations
    WHERE property_id = ${imported.property_id} AND check_in_date <= ${stay.check_in}::date
      AND ${stay.check_in}::date < check_out_date AND status IN ('tentative', 'confirmed')`.pipe(
    Effect.orDie,
    Effect.map((rows) => rows[0]?.taken ?? 0)
  )

layer(TestApiLive, { excludeTestServices: true })("capacity under concurrency", (it) => {
  it.effect("overbooking on: 3 rooms + 2 overbooked, 12 holds and 2 bookings of 2 rooms at once: exactly 5 rooms sold", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 3 })
      const client = yield* api.clientFor(key)
      yield* putControls(api, imported.room_types.A, { ...nights, overbooking: 2 }, { key })
      const holds = yield* holdsFor(api, client, imported, 12)
      const guest = yield* newGuest(api, imported.property_id)
      const two = [importedRoom(imported, "A"), importedRoom(imported, "A")]
      const bookings = [0, 1].map(() => client.bookings.create({ headers: {}, payload: bookingBody(guest, two, stay) }))
      const outcomes = yield* race([...bookings, ...holds])
      expect(tally(outcomes).NoAvailability).toBeGreaterThan(0)
      expect(yield* takenOn(api, imported)).toBe(5)
    }))

  it.effect("overbooking off: a sell limit of 2 and a room out of order on 4 rooms: 10 holds at once, exactly 2 win", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 4 })
      const client = yield* api.clientFor(key)
      const [room] = yield* roomsOf(api, imported.room_types.A, { key })
      yield* takeOutOfOrder(api, room.id, nights, { key })
      yield* putControls(api, imported.room_types.A, { ...nights, sell_limit: 2 }, { key })
      const holds = yield* holdsFor(api, client, imported, 10)
      expect(tally(yield* race(holds))).toEqual({ ok: 2, NoAvailability: 8 })
      expect(yield* takenOn(api, imported)).toBe(2)
    }))

  it.effect("a period out of order racing holds for the last rooms: never more sold than the rooms left cover", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 3 })
      const client = yield* api.clientFor(key)
      const rooms = yield* roomsOf(api, imported.room_types.A, { key })
      const holds = yield* holdsFor(api, client, imported, 3)
      const periods = rooms.slice(0, 2).map((room) => client.inventory.outOfOrder({ headers: {}, params: { id: room.id }, payload: nights }))
      const outcomes = yield* race([...periods, ...holds])
      expect(outcomes.every((outcome) => outcome === "ok" || outcome === "NoAvailability"), JSON.stringify(outcomes)).toBe(true)
      const out = outcomes.slice(0, 2).filter((outcome) => outcome === "ok").length
      // Rooms in service (3 − periods written) always cover the holds written.
      expect(yield* takenOn(api, imported)).toBeLessThanOrEqual(3 - out)
    }))
})
