import { expect, layer } from "@effect/vitest"
import type { PropertyImportResult } from "@hotel/persistence/property/PropertyImport"
import * as Effect from "effect/Effect"
import { importedHoldBody, importRoomTypes, newGuest } from "../utils/booking.js"
import { book, bookingBody, type BookingRoom, importedRoom } from "../utils/bookings.js"
import { overbookedNights, race, tally } from "../utils/concurrency.js"
import type { HotelClient } from "../utils/client.js"
import { TestApi, TestApiLive, type TestApiService } from "../utils/TestServer.js"

// Bookings under REAL concurrent HTTP requests: never oversold, never half held, never half confirmed, and no
// deadlock between bookings locking several room types and holds locking one. Each call ends as its success
// status or its decoded error class.

const stay = { check_in: "2031-10-01", check_out: "2031-10-03" }

const createBooking = (client: HotelClient, guest: string, rooms: ReadonlyArray<BookingRoom>) =>
  client.bookings.create({ headers: {}, payload: bookingBody(guest, rooms, stay) })

/** Per booking of the property: how many reservations it has. */
const roomsPerBooking = (api: TestApiService, imported: PropertyImportResult) =>
  api.sql<{ booking_id: string; rooms: number }>`
    SELECT b.id AS booking_id, count(r.id)::int AS rooms
    FROM bookings b JOIN reservations r ON r.booking_id = b.id
    WHERE b.property_id = ${imported.property_id} GROUP BY b.id`.pipe(Effect.orDie)

layer(TestApiLive, { excludeTestServices: true })("bookings under concurrency", (it) => {
  it.effect("12 bookings of 2 rooms for the last 5 rooms: exactly 2 succeed, whole; the rest 409 no_availability", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 5 })
      const client = yield* api.clientFor(key)
      const guests = yield* Effect.forEach(Array.from({ length: 12 }), () => newGuest(api, imported.property_id))
      const two = [importedRoom(imported, "A"), importedRoom(imported, "A")]
      const outcomes = yield* race(guests.map((guest) => createBooking(client, guest, two)))
      expect(tally(outcomes)).toEqual({ ok: 2, NoAvailability: 10 })
      expect(yield* overbookedNights(api.sql, imported.property_id, new Date())).toEqual([])
      expect((yield* roomsPerBooking(api, imported)).map((b) => b.rooms)).toEqual([2, 2])
      const [{ n }] = yield* api.sql<{ n: number }>`
        SELECT count(*)::int AS n FROM reservations WHERE property_id = ${imported.property_id}`.pipe(Effect.orDie)
      expect(n).toBe(4)
    }))

  it.effect("bookings against single holds on two room types locked in either order: never oversold, no deadlock", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 4, B: 4 })
      const client = yield* api.clientFor(key)
      const guests = yield* Effect.forEach(Array.from({ length: 24 }), () => newGuest(api, imported.property_id))
      const calls = guests.map((guest, i) => {
        switch (i % 3) {
          case 0:
            return createBooking(client, guest, [importedRoom(imported, "A"), importedRoom(imported, "B")])
          case 1:
            return createBooking(client, guest, [importedRoom(imported, "B"), importedRoom(imported, "A"), importedRoom(imported, "B")])
          default:
            return client.holds.create({ headers: {}, payload: importedHoldBody(imported, i % 2 === 0 ? "A" : "B", guest, stay) })
        }
      })
      const outcomes = yield* race(calls)
      expect(Object.keys(tally(outcomes)).sort()).toEqual(["NoAvailability", "ok"])
      expect(yield* overbookedNights(api.sql, imported.property_id, new Date())).toEqual([])
      // Every booking holds all its rooms: 2 or 3, never fewer.
      for (const booking of yield* roomsPerBooking(api, imported)) expect([2, 3]).toContain(booking.rooms)
    }))

  it.effect("a booking's confirm against the cancel of one of its rooms: never half confirmed", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 20 })
      const client = yield* api.clientFor(key)
      // One guest per booking: a guest may have at most 10 live holds.
      const bookings = yield* Effect.forEach(Array.from({ length: 8 }), () =>
        Effect.flatMap(newGuest(api, imported.property_id), (guest) =>
          book(api, bookingBody(guest, [importedRoom(imported, "A"), importedRoom(imported, "A")], stay), { key })))
      const outcomes = yield* Effect.forEach(bookings, (booking) =>
        race([
          client.bookings.confirm({ headers: {}, params: { id: booking.booking_id }, payload: { payment_reference: `pay-${booking.booking_id}` } }),
          client.reservationActions.cancel({ headers: {}, params: { id: booking.reservations[1].reservation_id }, payload: {} })
        ]), { concurrency: "unbounded" })
      for (const [i, [confirmed, cancelled]] of outcomes.entries()) {
        expect(cancelled).toBe("ok")
        expect(["ok", "NotConfirmable"]).toContain(confirmed)
        const booking = bookings[i]
        const rows = yield* api.sql<{ status: string; payments: number }>`
          SELECT r.status, (SELECT count(*) FROM payments p WHERE p.reservation_id = r.id)::int AS payments
          FROM reservations r WHERE r.booking_id = ${booking.booking_id} ORDER BY r.booking_position`.pipe(Effect.orDie)
        // The first room is confirmed and both folios paid exactly when the confirm went through.
        expect(rows).toEqual(confirmed === "ok"
          ? [{ status: "confirmed", payments: 1 }, { status: "cancelled", payments: 1 }]
          : [{ status: "tentative", payments: 0 }, { status: "cancelled", payments: 0 }])
      }
    }))
  it.effect("10 simultaneous confirms of one booking: one payment per folio, nine already_confirmed", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 3 })
      const client = yield* api.clientFor(key)
      const booking = yield* book(api, bookingBody(guest, [importedRoom(imported, "A"), importedRoom(imported, "A")], stay), { key })
      const results = yield* Effect.all(Array.from({ length: 10 }, (_, i) =>
        client.bookings.confirm({ headers: {}, params: { id: booking.booking_id }, payload: { payment_reference: i % 2 === 0 ? "pay-same" : `pay-${i}` } })),
        { concurrency: "unbounded" })
      expect(results.filter((done) => !done.already_confirmed)).toHaveLength(1)
      const [{ payments, lines }] = yield* api.sql<{ payments: number; lines: number }>`
        SELECT (SELECT count(*) FROM payments WHERE booking_id = ${booking.booking_id})::int AS payments,
               (SELECT count(*) FROM folio_lines l JOIN folios f ON f.id = l.folio_id
                JOIN reservations r ON r.id = f.reservation_id WHERE r.booking_id = ${booking.booking_id} AND l.kind = 'payment')::int AS lines`.pipe(Effect.orDie)
      expect([payments, lines]).toEqual([2, 2])
    }))
})
