import { expect, layer } from "@effect/vitest"
import { HoldSweeper } from "@hotel/persistence/booking/HoldSweeper"
import { HoldExpired, NoAvailability, NotCancellable } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { getReservation, importRoomTypes } from "../utils/booking.js"
import { book, bookingBody, cancelBooking, confirmBooking, importedRoom } from "../utils/bookings.js"
import { expectFailure } from "../utils/client.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// A booking's holds expire together, like any hold: the in-process server runs on the TestClock, so the
// 15-minute window is crossed by moving the clock; HTTP still goes over real sockets.

const T0 = Date.parse("2031-06-01T10:00:00Z")
const minutes = (n: number) => n * 60_000
const stay = { check_in: "2031-07-10", check_out: "2031-07-12" }

layer(TestApiLive)("booking expiry", (it) => {
  it.effect("at 14:59 the booking holds its rooms; at 15:00 they are free, its confirm is 409 hold_expired", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 2 })
      const rooms = [importedRoom(imported, "A"), importedRoom(imported, "A")]
      const booking = yield* book(api, bookingBody(guest, rooms, stay), { key })
      expect(booking.hold_expires_at).toBe(new Date(T0 + minutes(15)).toISOString())

      yield* TestClock.setTime(T0 + minutes(15) - 1000)
      yield* expectFailure(book(api, bookingBody(guest, rooms.slice(1), stay), { key }), NoAvailability)

      yield* TestClock.setTime(T0 + minutes(15))
      for (const room of booking.reservations) {
        expect(yield* getReservation(api, room.reservation_id, { key })).toMatchObject({ status: "cancelled", cancellation_reason: "hold_expired" })
      }
      yield* expectFailure(confirmBooking(api, booking.booking_id, { payment_reference: "pay-late" }, { key }), HoldExpired)
      yield* expectFailure(cancelBooking(api, booking.booking_id, {}, { key }), NotCancellable)
      // The rooms are free for another booking, which can be confirmed one second before its own deadline.
      const next = yield* book(api, bookingBody(guest, rooms, stay), { key })
      yield* TestClock.setTime(T0 + minutes(30) - 1000)
      expect((yield* confirmBooking(api, next.booking_id, {}, { key })).already_confirmed).toBe(false)
    }))

  it.effect("after the sweeper wrote the rooms down, the booking's confirm is still hold_expired", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const sweeper = yield* HoldSweeper
      const start = T0 + minutes(120)
      yield* TestClock.setTime(start)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 2 })
      const booking = yield* book(api, bookingBody(guest, [importedRoom(imported, "A"), importedRoom(imported, "A")], stay), { key })
      yield* TestClock.setTime(start + minutes(16))
      expect(yield* sweeper.sweep()).toBeGreaterThanOrEqual(2)
      const stored = yield* api.sql<{ status: string; cancellation_reason: string }>`
        SELECT status, cancellation_reason FROM reservations WHERE booking_id = ${booking.booking_id}`.pipe(Effect.orDie)
      expect(stored).toEqual([
        { status: "cancelled", cancellation_reason: "hold_expired" },
        { status: "cancelled", cancellation_reason: "hold_expired" }
      ])
      yield* expectFailure(confirmBooking(api, booking.booking_id, { payment_reference: "pay-swept" }, { key }), HoldExpired)
    }).pipe(Effect.provide(HoldSweeper.layer)))
})
