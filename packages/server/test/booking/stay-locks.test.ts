import { expect, layer } from "@effect/vitest"
import type { PropertyImportResult } from "@hotel/persistence/property/PropertyImport"
import * as Effect from "effect/Effect"
import { confirm, hold, importedHoldBody, importRoomTypes, newGuest } from "../utils/booking.js"
import { bookingBody, importedRoom } from "../utils/bookings.js"
import type { HotelClient } from "../utils/client.js"
import { overbookedNights, race, tally } from "../utils/concurrency.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"

// The lock order of the stay path (`lockStay`, persistence/src/booking/stayLocks.ts) under REAL concurrent HTTP
// requests: changes moving stays between two room types and bookings taking a room of each, all in flight at
// once, round after round. A writer that took the two room types' locks in another order than the others would
// deadlock with them (Postgres then kills one: a 500); here every request ends with a contract answer and no
// night is sold beyond its rooms.

/** A confirmed stay of a new guest on room type `rt`. */
const confirmedStay = (api: TestApiService, imported: PropertyImportResult, key: string, rt: string, dates: { check_in: string; check_out: string }) =>
  Effect.gen(function*() {
    const guest = yield* newGuest(api, imported.property_id)
    const held = yield* hold(api, importedHoldBody(imported, rt, guest, dates), { key })
    yield* confirm(api, held.reservation_id, {}, { key })
    return held.reservation_id
  })

const moveTo = (client: HotelClient, imported: PropertyImportResult, id: string, rt: string) =>
  client.reservationChanges.change({
    params: { id },
    payload: { room_type_id: imported.room_types[rt], rate_plan_id: imported.rate_plans[`BAR-${rt}`] },
    headers: {}
  })

/** A booking of one room of each type, in the order given. */
const bookBoth = (client: HotelClient, imported: PropertyImportResult, guest: string, order: ReadonlyArray<string>, dates: { check_in: string; check_out: string }) =>
  client.bookings.create({ headers: {}, payload: bookingBody(guest, order.map((rt) => importedRoom(imported, rt)), dates) })

layer(TestApiLive, { excludeTestServices: true })("the stay path's locks", (it) => {
  it.effect("changes moving stays between two room types racing bookings of both: no deadlock, nothing oversold", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { X: 3, Y: 3 })
      const client = yield* api.clientFor(key)
      let changed = 0
      let booked = 0
      for (let round = 0; round < 8; round++) {
        const day = (offset: number) => `2032-03-${String(1 + round * 3 + offset).padStart(2, "0")}`
        const dates = { check_in: day(0), check_out: day(2) }
        const onX = [yield* confirmedStay(api, imported, key, "X", dates), yield* confirmedStay(api, imported, key, "X", dates)]
        const onY = [yield* confirmedStay(api, imported, key, "Y", dates), yield* confirmedStay(api, imported, key, "Y", dates)]
        const guests = [yield* newGuest(api, imported.property_id), yield* newGuest(api, imported.property_id), yield* newGuest(api, imported.property_id)]
        const labels = yield* race([
          moveTo(client, imported, onX[0], "Y"),
          bookBoth(client, imported, guests[0], ["Y", "X"], dates),
          moveTo(client, imported, onY[0], "X"),
          bookBoth(client, imported, guests[1], ["X", "Y"], dates),
          moveTo(client, imported, onX[1], "Y"),
          bookBoth(client, imported, guests[2], ["Y", "X"], dates),
          moveTo(client, imported, onY[1], "X")
        ])
        // Every answer is one the contract gives: the change or the booking made, or no room (409).
        expect(Object.keys(tally(labels)).filter((label) => !["ok", "NoAvailability"].includes(label)), labels.join()).toEqual([])
        changed += labels.filter((label, i) => i % 2 === 0 && label === "ok").length
        booked += labels.filter((label, i) => i % 2 === 1 && label === "ok").length
        expect(yield* overbookedNights(api.sql, imported.property_id, new Date())).toEqual([])
      }
      // The rounds did race: some changes and some bookings went through.
      expect(changed).toBeGreaterThan(0)
      expect(booked).toBeGreaterThan(0)
    }), { timeout: 120_000 })
})
