import { expect, layer } from "@effect/vitest"
import { BookingRead } from "@hotel/api/booking/Api"
import * as Effect from "effect/Effect"
import { cancel, importRoomTypes } from "../utils/booking.js"
import { book, bookingBody, confirmBooking, importedRoom } from "../utils/bookings.js"
import { change } from "../utils/changes.js"
import { bodyAs } from "../utils/client.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"

// GET /bookings/{id} follows its rooms: `check_in`/`check_out` span its reservations that are not cancelled
// (all of them once every one is) and `total` is the sum of their totals, after any change or cancel of a room.
// Real time.

/** The booking as `GET /bookings/{id}` answers it (200), and the sum of its rooms' totals as each reads. */
const read = (api: TestApiService, id: string, key: string) =>
  Effect.gen(function*() {
    const res = yield* api.get(`/bookings/${id}`, { key })
    expect(res.status, res.text).toBe(200)
    const booking = bodyAs(res, BookingRead)
    const sum = (statuses: ReadonlyArray<string>) =>
      booking.reservations.filter((r) => statuses.includes(r.status)).reduce((s, r) => s + Number(r.total), 0).toFixed(2)
    return { booking, etag: res.headers.get("etag"), sumOf: sum }
  })

layer(TestApiLive, { excludeTestServices: true })("GET /bookings/{id}: the stay and total of its rooms", (it) => {
  it.effect("dates and total follow a change of one room, then the other, a change of party and each cancel", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest, imported, key } = yield* importRoomTypes(api, { LARGE: 3 })
      const created = yield* book(api, bookingBody(guest, [importedRoom(imported, "LARGE"), importedRoom(imported, "LARGE")], {
        check_in: "2031-07-01",
        check_out: "2031-07-04"
      }), { key })
      yield* confirmBooking(api, created.booking_id, {}, { key })
      const [first, second] = created.reservations.map((r) => r.reservation_id)
      const live = ["confirmed"]

      const before = yield* read(api, created.booking_id, key)
      expect(before.booking).toMatchObject({ check_in: "2031-07-01", check_out: "2031-07-04", total: "648.00" })

      // One room five days later: the booking spans both rooms.
      yield* change(api, first, { check_in: "2031-07-06", check_out: "2031-07-09" }, { key })
      const moved = yield* read(api, created.booking_id, key)
      expect(moved.booking).toMatchObject({ check_in: "2031-07-01", check_out: "2031-07-09", total: moved.sumOf(live) })
      expect(moved.etag).not.toBe(before.etag)

      // The other one too, one night shorter: the booking's dates are its rooms' again.
      yield* change(api, second, { check_in: "2031-07-06", check_out: "2031-07-08" }, { key })
      const both = yield* read(api, created.booking_id, key)
      expect(both.booking).toMatchObject({ check_in: "2031-07-06", check_out: "2031-07-09", total: "540.00" })

      // One guest more (the city tax is per guest and night): the total follows.
      yield* change(api, second, { adults: 2 }, { key })
      const party = yield* read(api, created.booking_id, key)
      expect(party.booking.total).toBe("544.00")
      expect(party.booking.total).toBe(party.sumOf(live))

      // A cancelled room leaves the stay and the total; once every room is cancelled, all of them count again.
      yield* cancel(api, first, {}, { key })
      const one = yield* read(api, created.booking_id, key)
      expect(one.booking).toMatchObject({ check_in: "2031-07-06", check_out: "2031-07-08", total: "220.00" })
      expect(one.booking.total).toBe(one.sumOf(live))
      yield* cancel(api, second, {}, { key })
      const none = yield* read(api, created.booking_id, key)
      expect(none.booking.reservations.map((r) => r.status)).toEqual(["cancelled", "cancelled"])
      expect(none.booking).toMatchObject({ check_in: "2031-07-06", check_out: "2031-07-09", total: "544.00" })
      expect(none.booking.total).toBe(none.sumOf(["cancelled"]))
    }))

  it.effect("a cancelled room's dates leave the booking's span while another room is not cancelled", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest, imported, key } = yield* importRoomTypes(api, { LARGE: 3 })
      const created = yield* book(api, bookingBody(guest, [
        importedRoom(imported, "LARGE"),
        importedRoom(imported, "LARGE"),
        importedRoom(imported, "LARGE")
      ], { check_in: "2031-08-01", check_out: "2031-08-04" }), { key })
      const [first, second, third] = created.reservations.map((r) => r.reservation_id)
      // Holds, not yet confirmed: the earliest arrival moves later, the latest departure earlier.
      yield* change(api, first, { check_in: "2031-07-30" }, { key })
      yield* change(api, third, { check_out: "2031-08-06" }, { key })
      expect((yield* read(api, created.booking_id, key)).booking).toMatchObject({ check_in: "2031-07-30", check_out: "2031-08-06" })
      yield* cancel(api, first, {}, { key })
      yield* cancel(api, third, {}, { key })
      const left = yield* read(api, created.booking_id, key)
      expect(left.booking).toMatchObject({ check_in: "2031-08-01", check_out: "2031-08-04", total: left.sumOf(["tentative"]) })
      expect(left.booking.reservations.find((r) => r.id === second)?.total).toBe(left.booking.total)
    }))
})
