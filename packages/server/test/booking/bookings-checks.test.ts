import { expect, layer } from "@effect/vitest"
import { BookingCreated } from "@hotel/api/booking/Api"
import * as Effect from "effect/Effect"
import { bookingRows, count, hold, importedHoldBody, importRoomTypes, newGuest } from "../utils/booking.js"
import { book, bookingBody, dblRoom, importedRoom, postBooking } from "../utils/bookings.js"
import { bodyAs } from "../utils/client.js"
import { expectError } from "../utils/rateManagement.js"
import { insertPlan, insertPromoCode } from "../utils/sqlSeed.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// POST /bookings: every room is checked as a hold, and a refusal of any room refuses the booking with the hold's
// error and writes nothing. A 400 names the field with its room (`rooms[i].` + the hold's param, the guest and
// the stay keep their own names); the other refusals carry no param and name the room in their message.

const stay = { check_in: "2031-07-01", check_out: "2031-07-03" }

layer(TestApiLive, { excludeTestServices: true })("POST /bookings: checks", (it) => {
  it.effect("field validation names the field with its room: rooms[1].adults, rooms[0].add_ons[2].quantity, rooms", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const brk = { service_id: api.property.services["BRK"] }
      const invalid = (body: unknown, param: string) =>
        Effect.map(postBooking(api, body), (res) => expectError(res, 400, "invalid_request", "invalid_parameters", param))
      const base = bookingBody(guest, [dblRoom(api)], stay)
      const error = yield* invalid({ ...base, rooms: [dblRoom(api), dblRoom(api, { adults: 0 })] }, "rooms[1].adults")
      expect(error.message).toContain("rooms[1].adults")
      yield* invalid({ ...base, rooms: [dblRoom(api, { add_ons: [brk, brk, { ...brk, quantity: 100 }] })] }, "rooms[0].add_ons[2].quantity")
      yield* invalid({ ...base, rooms: [dblRoom(api), { ...dblRoom(api), room_type_id: "nope" }] }, "rooms[1].room_type_id")
      yield* invalid({ ...base, rooms: [dblRoom(api), "a room"] }, "rooms[1]")
      yield* invalid({ ...base, rooms: [] }, "rooms")
      yield* invalid({ ...base, rooms: Array.from({ length: 11 }, () => dblRoom(api)) }, "rooms")
      yield* invalid({ guest_id: guest, ...stay }, "rooms")
      // The guest and the stay are the booking's: their fields keep their names.
      yield* invalid({ ...base, check_out: stay.check_in }, "check_out")
      yield* invalid({ ...base, guest_id: "nope" }, "guest_id")
      // Rules on fields that need the room type or the service, after the 404s.
      yield* invalid({ ...base, rooms: [dblRoom(api), dblRoom(api, { bed_config: "bunk" })] }, "rooms[1].bed_config")
      yield* invalid(
        { ...base, rooms: [dblRoom(api, { add_ons: [{ service_id: api.property.services["TRF"] }] })] },
        "rooms[0].add_ons[0].modifier_values.flight"
      )
      expect(yield* count(api.sql, "bookings")).toBe(0)
    }))

  it.effect("404s, party_too_large and no_availability carry no param; the message names the room", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const before = yield* bookingRows(api.sql)
      const refused = (rooms: ReadonlyArray<ReturnType<typeof dblRoom>>, status: number, type: string, code: string) =>
        Effect.map(postBooking(api, bookingBody(guest, rooms, stay)), (res) => expectError(res, status, type, code))
      const missing = globalThis.crypto.randomUUID()
      expect((yield* refused([dblRoom(api), dblRoom(api, { room_type_id: missing })], 404, "not_found", "room_type_not_found")).message)
        .toContain("rooms[1]")
      expect((yield* refused([dblRoom(api, { rate_plan_id: missing })], 404, "not_found", "rate_plan_not_found")).message)
        .toContain("rooms[0]")
      expect((yield* refused([dblRoom(api), dblRoom(api, { add_ons: [{ service_id: missing }] })], 404, "not_found", "service_not_found")).message)
        .toContain("rooms[1]")
      expect((yield* refused([dblRoom(api), dblRoom(api, { adults: 4 })], 400, "invalid_request", "party_too_large")).message)
        .toContain("rooms[1]")
      const suite = { room_type_id: api.property.room_types["STE"], rate_plan_id: api.property.rate_plans["BAR-STE"], adults: 2 }
      expect((yield* refused([dblRoom(api), suite, suite], 409, "conflict", "no_availability")).message).toContain("rooms[2]")
      const unknownGuest = yield* postBooking(api, bookingBody(missing, [dblRoom(api)], stay))
      expectError(unknownGuest, 404, "not_found", "guest_not_found")
      // All or none: nothing of the rooms that passed was written.
      expect(yield* bookingRows(api.sql)).toEqual(before)
      expect(yield* count(api.sql, "bookings")).toBe(0)
    }))

  it.effect("every room prices in one currency: another is 400 currency_mismatch on rooms[i].rate_plan_id", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const usd = dblRoom(api, { rate_plan_id: api.property.rate_plans["USD-DBL"] })
      const res = yield* postBooking(api, bookingBody(guest, [dblRoom(api), dblRoom(api), usd], stay))
      expect(expectError(res, 400, "invalid_request", "currency_mismatch", "rooms[2].rate_plan_id").message).toContain("USD")
      // In one currency other than the base, the booking is in that currency.
      const inUsd = yield* book(api, bookingBody(guest, [usd, usd], { check_in: "2031-07-05", check_out: "2031-07-06" }))
      expect(inUsd.currency).toBe("USD")
      expect(inUsd.reservations.map((r) => r.currency)).toEqual(["USD", "USD"])
    }))

  it.effect("a field error of a later room wins over the availability of an earlier one (400s before the locks)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 1 })
      yield* hold(api, importedHoldBody(imported, "A", guest, stay), { key })
      const body = bookingBody(guest, [importedRoom(imported, "A"), importedRoom(imported, "A", { bed_config: "bunk" })], stay)
      expectError(yield* postBooking(api, body, { key }), 400, "invalid_request", "invalid_parameters", "rooms[1].bed_config")
    }))

  it.effect("each room is one live hold for the guest's cap and the key's", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 20 })
      const weeks = (n: number) => ({ check_in: `2031-08-${String(1 + n).padStart(2, "0")}`, check_out: `2031-08-${String(2 + n).padStart(2, "0")}` })
      yield* Effect.forEach(Array.from({ length: 8 }, (_, i) => i), (i) => hold(api, importedHoldBody(imported, "A", guest, weeks(i)), { key }))
      const three = bookingBody(guest, [importedRoom(imported, "A"), importedRoom(imported, "A"), importedRoom(imported, "A")], weeks(10))
      const limited = expectError(yield* postBooking(api, three, { key }), 409, "conflict", "hold_limit_reached")
      expect(limited.message).toContain("rooms[2]")
      const two = yield* postBooking(api, { ...three, rooms: three.rooms.slice(0, 2) }, { key })
      expect(two.status, two.text).toBe(201)

      const capped = yield* api.createKey({ propertyId: imported.property_id, maxLiveHolds: 2 })
      const other = yield* newGuest(api, imported.property_id)
      const res = yield* postBooking(api, { ...three, guest_id: other }, { key: capped })
      expect(expectError(res, 409, "conflict", "hold_limit_reached").message).toContain("rooms[2]")
    }))

  it.effect("a promo code's cap counts the booking's own earlier rooms", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 5 })
      const plan = yield* insertPlan(api.sql, imported.property_id, imported.room_types["A"], { requires_promo_code: true, kind: "promotion" })
      yield* insertPromoCode(api.sql, imported.property_id, plan, { code: "ONCE", max_redemptions: 1 })
      const room = importedRoom(imported, "A", { rate_plan_id: plan, promo_code: "once" })
      const res = yield* postBooking(api, bookingBody(guest, [room, room], stay), { key })
      expect(expectError(res, 404, "not_found", "rate_plan_not_found").message).toContain("rooms[1]")
      const [{ n }] = yield* api.sql<{ n: number }>`SELECT count(*)::int AS n FROM reservations WHERE rate_plan_id = ${plan}`.pipe(Effect.orDie)
      expect(n).toBe(0)
      const one = yield* book(api, bookingBody(guest, [room, importedRoom(imported, "A")], stay), { key })
      expect(one.reservations).toHaveLength(2)
    }))

  it.effect("an Idempotency-Key replays the booking instead of booking twice", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 4 })
      const body = bookingBody(guest, [importedRoom(imported, "A"), importedRoom(imported, "A")], stay)
      const headers = { "idempotency-key": `book-${globalThis.crypto.randomUUID()}` }
      const first = yield* postBooking(api, body, { key, headers })
      const again = yield* postBooking(api, body, { key, headers })
      expect(again.status).toBe(201)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(bodyAs(again, BookingCreated)).toEqual(bodyAs(first, BookingCreated))
      const [{ n }] = yield* api.sql<{ n: number }>`SELECT count(*)::int AS n FROM bookings WHERE guest_id = ${guest}`.pipe(Effect.orDie)
      expect(n).toBe(1)
      expectError(yield* postBooking(api, { ...body, rooms: body.rooms.slice(0, 1) }, { key, headers }), 409, "conflict", "idempotency_key_reuse")
    }))
})
