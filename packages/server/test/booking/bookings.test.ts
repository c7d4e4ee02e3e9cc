import { expect, layer } from "@effect/vitest"
import { BookingCreated, BookingRead } from "@hotel/api/booking/Api"
import * as Effect from "effect/Effect"
import { folioLines, getReservation, hold, holdBody, importedHoldBody, importRoomTypes, newGuest } from "../utils/booking.js"
import { book, bookingBody, dblRoom, getBooking, importedRoom, postBooking } from "../utils/bookings.js"
import { BookingNotFound, InsufficientScope } from "@hotel/domain"
import { bodyAs, expectFailure } from "../utils/client.js"
import { allEvents } from "../events/feed.js"
import { expectError } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// POST /bookings: several rooms held together, each one a hold; GET /bookings/{id}; `booking_id` on
// reservations and the `booking_id` filter of GET /reservations. Refusals are in bookings-checks.test.ts, the
// confirm and cancel in bookings-confirm.test.ts. Real time; each test books its own dates or property.

layer(TestApiLive, { excludeTestServices: true })("POST /bookings", (it) => {
  it.effect("a booking of one room gives exactly what POST /holds gives: total, folio lines, reservation", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const stay = { check_in: "2031-04-07", check_out: "2031-04-10" }
      const room = {
        adults: 2,
        child_ages: [4],
        bed_config: "twin",
        special_notes: "Quiet room",
        add_ons: [{ service_id: api.property.services["BRK"], quantity: 2, modifier_values: { diet: "vegan" } }]
      }
      const single = yield* hold(api, holdBody(api, guest, { ...stay, ...room }))
      const booked = yield* book(api, bookingBody(guest, [dblRoom(api, room)], stay))
      const [mine] = booked.reservations
      expect(booked.total).toBe(single.total)
      expect(mine).toMatchObject({ total: single.total, currency: single.currency, status: "tentative" })
      expect(booked.hold_expires_at).toMatch(/Z$/)
      expect(yield* folioLines(api.sql, mine.folio_id)).toEqual(yield* folioLines(api.sql, single.folio_id))
      const differs = ["id", "confirmation_code", "folio_id", "booking_id", "created_at", "hold_expires_at", "accommodations"]
      const comparable = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([k]) => !differs.includes(k)))
      const fromHold = yield* getReservation(api, single.reservation_id)
      const fromBooking = yield* getReservation(api, mine.reservation_id)
      expect(comparable(fromBooking)).toEqual(comparable(fromHold))
      expect(fromHold.accommodations.map(({ id: _, ...a }) => a)).toEqual(fromBooking.accommodations.map(({ id: _, ...a }) => a))
      expect(fromHold.booking_id).toBeNull()
      expect(fromBooking.booking_id).toBe(booked.booking_id)
      // The same entitlements and add-ons rows.
      const addOns = (id: string) =>
        api.sql`SELECT service_id, quantity, modifier_values FROM reservation_add_ons WHERE reservation_id = ${id}`.pipe(Effect.orDie)
      expect(yield* addOns(mine.reservation_id)).toEqual(yield* addOns(single.reservation_id))
    }))

  it.effect("several rooms: 201 with one reservation per room in order, one currency, the sum as total", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 2, B: 1 })
      const body = bookingBody(guest, [importedRoom(imported, "B"), importedRoom(imported, "A", { adults: 2 }), importedRoom(imported, "A")], {
        check_in: "2031-05-01",
        check_out: "2031-05-03"
      })
      const res = yield* postBooking(api, body, { key })
      expect(res.status, res.text).toBe(201)
      const created = bodyAs(res, BookingCreated)
      expect(Object.keys(created).sort()).toEqual(["booking_id", "currency", "hold_expires_at", "reservations", "total"])
      expect(created.reservations).toHaveLength(3)
      expect(created.currency).toBe("EUR")
      const sum = created.reservations.reduce((s, r) => s + Number(r.total), 0)
      expect(created.total).toBe(sum.toFixed(2))

      const read = yield* Effect.map(api.get(`/bookings/${created.booking_id}`, { key }), (r) => {
        expect(r.status, r.text).toBe(200)
        expect(r.headers.get("etag")).toMatch(/^"/)
        return bodyAs(r, BookingRead)
      })
      expect(read).toMatchObject({
        id: created.booking_id,
        guest_id: guest,
        check_in: "2031-05-01",
        check_out: "2031-05-03",
        currency: "EUR",
        total: created.total
      })
      expect(read.reservations.map((r) => r.id)).toEqual(created.reservations.map((r) => r.reservation_id))
      expect(read.reservations.map((r) => r.room_type_id)).toEqual(body.rooms.map((r) => r.room_type_id))
      expect(read.reservations.map((r) => r.adults)).toEqual([1, 2, 1])
      expect(read.reservations.every((r) => r.booking_id === created.booking_id && r.status === "tentative")).toBe(true)
      expect(new Set(read.reservations.map((r) => r.hold_expires_at))).toEqual(new Set([created.hold_expires_at]))

      // The type's two rooms are both taken now.
      const client = yield* api.clientFor(key)
      const calendar = yield* client.availability.availability({ query: { start_date: "2031-05-01", end_date: "2031-05-02" } })
      expect(calendar.data.map((t) => t.nights.map((n) => n.available))).toEqual([[0, 0], [0, 0]])
    }))

  it.effect("events: each room's reservation.held (its GET, value for value), then one availability.changed per room type", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 3, B: 2 })
      const stay = { check_in: "2031-05-10", check_out: "2031-05-12" }
      const before = yield* allEvents(api, key)
      const created = yield* book(
        api,
        bookingBody(guest, [importedRoom(imported, "A"), importedRoom(imported, "B"), importedRoom(imported, "A")], stay),
        { key }
      )
      const events = yield* allEvents(api, key, { after: before[before.length - 1]?.id })
      expect(events.map((e) => e.type)).toEqual([
        "reservation.held",
        "reservation.held",
        "reservation.held",
        "availability.changed",
        "availability.changed"
      ])
      expect(events.slice(0, 3).map((e) => e.data["id"])).toEqual(created.reservations.map((r) => r.reservation_id))
      expect(events[0].data["booking_id"]).toBe(created.booking_id)
      // Each room's data is rendered before its insert, from the rows it writes: it is what a read answers.
      const reads = yield* Effect.forEach(created.reservations, (r) => getReservation(api, r.reservation_id, { key }))
      expect(events.slice(0, 3).map((e) => e.data)).toStrictEqual(reads)
      expect(events.slice(3).map((e) => e.data)).toEqual([
        { room_type_id: imported.room_types["A"], start_date: stay.check_in, end_date: stay.check_out },
        { room_type_id: imported.room_types["B"], start_date: stay.check_in, end_date: stay.check_out }
      ])
    }))

  it.effect("GET /reservations?booking_id= lists the booking's rooms; an unknown booking is 404, a malformed id 400", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 3 })
      const stay = { check_in: "2031-05-20", check_out: "2031-05-21" }
      const created = yield* book(api, bookingBody(guest, [importedRoom(imported, "A"), importedRoom(imported, "A")], stay), { key })
      yield* hold(api, importedHoldBody(imported, "A", guest, stay), { key })
      const client = yield* api.clientFor(key)
      const listed = yield* client.reservationReads.list({ query: { booking_id: created.booking_id } })
      expect(listed.data.map((r) => r.id).sort()).toEqual(created.reservations.map((r) => r.reservation_id).sort())
      expect(listed.data.every((r) => r.booking_id === created.booking_id)).toBe(true)
      const all = yield* client.reservationReads.list({ query: { guest_id: guest } })
      expect(all.data.filter((r) => r.booking_id === null)).toHaveLength(1)

      yield* expectFailure(client.reservationReads.list({ query: { booking_id: globalThis.crypto.randomUUID() } }), BookingNotFound)
      expectError(yield* api.get("/reservations?booking_id=nope", { key }), 400, "invalid_request", "invalid_parameters", "booking_id")
      // Another property's booking is reported exactly as a missing one.
      yield* expectFailure(api.client.reservationReads.list({ query: { booking_id: created.booking_id } }), BookingNotFound)
    }))

  it.effect("GET /bookings/{id}: 404 booking_not_found for an unknown, malformed or other property's id; scope reservations:read", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 1 })
      const created = yield* book(api, bookingBody(guest, [importedRoom(imported, "A")], { check_in: "2031-06-01", check_out: "2031-06-02" }), { key })
      expect((yield* getBooking(api, created.booking_id).pipe(Effect.result))._tag).toBe("Failure")
      yield* expectFailure(getBooking(api, created.booking_id), BookingNotFound)
      yield* expectFailure(getBooking(api, globalThis.crypto.randomUUID(), { key }), BookingNotFound)
      expectError(yield* api.get("/bookings/not-a-uuid", { key }), 404, "not_found", "booking_not_found")
      const reader = yield* api.createKey({ propertyId: imported.property_id, scopes: ["reservations:read"] })
      const read = yield* getBooking(api, created.booking_id, { key: reader })
      expect(read.id).toBe(created.booking_id)
      const body = bookingBody(guest, [importedRoom(imported, "A")])
      yield* expectFailure(book(api, body, { key: reader }), InsufficientScope)
    }))
})
