import { expect, layer } from "@effect/vitest"
import {
  CurrencyMismatch,
  HoldExpired,
  InsufficientScope,
  NoAvailability,
  NotModifiable,
  PartyTooLarge,
  PreconditionFailed,
  RatePlanNotFound,
  RoomTypeNotFound
} from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { cancel, folioLines, getReservation, importRoomTypes, lastSuite, newGuest } from "../utils/booking.js"
import { book as bookRooms, bookingBody, dblRoom } from "../utils/bookings.js"
import { expectFailure } from "../utils/client.js"
import { change, changeQuote, patchReservation, pay } from "../utils/changes.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { book, expire, forceStatus } from "../utils/stay.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// The refusals of PATCH /reservations/{id}, in the order of a hold's checks, and who may change what by status.
// The fixture's DBL sleeps 3, its STE (one room) sleeps 4; BAR-STE is not sold to channel keys.

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

layer(TestApiLive)("PATCH /reservations/{id}: checks", (it) => {
  it.effect("field validation (400, the field's param), then referenced ids (404), then the party (400)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const { reservation_id: id } = yield* book(api, { check_in: "2031-03-10", check_out: "2031-03-12" })
      expectInvalid(yield* patchReservation(api, id, { check_out: "2031-03-10" }), "check_out")
      expectInvalid(yield* patchReservation(api, id, { check_in: "2031-03-12" }), "check_out")
      expectInvalid(yield* patchReservation(api, id, { check_out: "2031-04-10" }), "check_out")
      expectInvalid(yield* patchReservation(api, id, { check_in: "2031-02-30" }), "check_in")
      expectInvalid(yield* patchReservation(api, id, { check_in: "2031-01-31", check_out: "2031-02-02" }), "check_in")
      expectInvalid(yield* patchReservation(api, id, { adults: 21 }), "adults")
      expectInvalid(yield* patchReservation(api, id, { check_in: null }), "check_in")
      expectInvalid(yield* patchReservation(api, id, { child_ages: [4, 200] }), "child_ages[1]")
      expectInvalid(yield* patchReservation(api, id, { room_type_id: "DBL" }), "room_type_id")
      expectInvalid(yield* patchReservation(api, id, { special_notes: "a\u0000b" }), "special_notes")
      expectError(yield* api.request("PATCH", `/reservations/${id}`, { raw: "{" }), 400, "invalid_request", "invalid_json")

      expectError(yield* patchReservation(api, missingId, { adults: 1 }), 404, "not_found", "reservation_not_found")
      expectError(yield* patchReservation(api, "not-an-id", { adults: 1 }), 404, "not_found", "reservation_not_found")
      expectError(yield* patchReservation(api, id, { room_type_id: missingId }), 404, "not_found", "room_type_not_found")
      expectError(yield* patchReservation(api, id, { rate_plan_id: missingId }), 404, "not_found", "rate_plan_not_found")
      // A plan prices one room type: a new room type alone keeps a plan of the old one.
      yield* expectFailure(change(api, id, { room_type_id: lastSuite(api).room_type_id }), RatePlanNotFound)
      yield* expectFailure(change(api, id, { room_type_id: missingId, adults: 4 }), RoomTypeNotFound)
      expectError(yield* patchReservation(api, id, { adults: 4 }), 400, "invalid_request", "party_too_large")
      yield* expectFailure(change(api, id, { adults: 2, child_ages: [5, 7] }), PartyTooLarge)
      const reader = yield* api.createKey({ scopes: ["reservations:read"] })
      expectError(yield* patchReservation(api, id, { adults: 1 }, { key: reader }), 403, "permission", "insufficient_scope")
      yield* expectFailure(pay(api, id, { amount: "1.00" }, { key: reader }), InsufficientScope)
      // Nothing was written by any refusal; unknown fields are ignored.
      expect(yield* change(api, id, { special_notes: null, ...{ nonsense: 1 } })).toEqual(yield* getReservation(api, id))
    }))

  it.effect("visibility for this key is 404 rate_plan_not_found; the rooms left are 409 no_availability, its own nights free", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const channel = yield* api.createKey({ context: "channel" })
      const mine = yield* book(api, { check_in: "2031-03-20", check_out: "2031-03-22" }, { key: channel })
      yield* expectFailure(change(api, mine.reservation_id, lastSuite(api), { key: channel }), RatePlanNotFound)

      const suite = yield* book(api, { ...lastSuite(api), check_in: "2031-03-20", check_out: "2031-03-22" })
      const other = yield* book(api, { check_in: "2031-03-21", check_out: "2031-03-23" })
      yield* expectFailure(change(api, other.reservation_id, lastSuite(api)), NoAvailability)
      yield* expectFailure(change(api, other.reservation_id, { ...lastSuite(api), check_out: "2031-03-22" }), NoAvailability)
      // The suite's own nights count as free for it: it moves a night later although the suite is sold out.
      const moved = yield* change(api, suite.reservation_id, { check_in: "2031-03-21", check_out: "2031-03-23" })
      expect(moved).toMatchObject({ check_in_date: "2031-03-21", check_out_date: "2031-03-23" })
      yield* change(api, other.reservation_id, { ...lastSuite(api), check_in: "2031-03-23", check_out: "2031-03-24" })
    }))

  it.effect("status: cancelled, checked out and no-show are 409 not_modifiable; an expired hold 409 hold_expired", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const cancelled = yield* book(api, { check_in: "2031-04-10", check_out: "2031-04-12" })
      yield* cancel(api, cancelled.reservation_id)
      expectError(yield* patchReservation(api, cancelled.reservation_id, { adults: 1 }), 409, "conflict", "not_modifiable")
      for (const status of ["checked_out", "no_show"]) {
        const stay = yield* book(api, { check_in: "2031-04-10", check_out: "2031-04-12" })
        yield* forceStatus(api.sql, stay.reservation_id, status)
        yield* expectFailure(change(api, stay.reservation_id, { special_notes: "x" }), NotModifiable)
      }
      const held = yield* book(api, { check_in: "2031-04-10", check_out: "2031-04-12" }, { tentative: true })
      yield* at("2031-02-01T10:15:00Z")
      expectError(yield* patchReservation(api, held.reservation_id, { adults: 1 }), 409, "conflict", "hold_expired")
      yield* expire(api.sql, held.reservation_id)
      yield* expectFailure(change(api, held.reservation_id, { special_notes: "x" }), HoldExpired)
    }))

  it.effect("a checked-in stay may only move its check-out (to tomorrow or later) and its notes", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const stay = yield* book(api, { check_in: "2031-05-10", check_out: "2031-05-12" })
      yield* at("2031-05-10T10:00:00Z")
      yield* Effect.flatMap(Effect.succeed(api.client), (client) => client.stay.checkIn({ headers: {}, params: { id: stay.reservation_id }, payload: {} }))
      const refused = expectError(yield* patchReservation(api, stay.reservation_id, { adults: 1 }), 409, "conflict", "not_modifiable")
      expect(refused.message).toContain("adults")
      yield* expectFailure(change(api, stay.reservation_id, { check_in: "2031-05-11" }), NotModifiable)
      expectInvalid(yield* patchReservation(api, stay.reservation_id, { check_out: "2031-05-10" }), "check_out")
      // The next day the check-in is in the past, which is fine while it is unchanged.
      yield* at("2031-05-11T10:00:00Z")
      expectInvalid(yield* patchReservation(api, stay.reservation_id, { check_out: "2031-05-11" }), "check_out")
      const extended = yield* change(api, stay.reservation_id, { check_out: "2031-05-14", special_notes: "Extends" })
      expect(extended).toMatchObject({ status: "checked_in", check_out_date: "2031-05-14", total: "524.80", folio_balance: "262.40" })
      // A checked-in stay takes a further payment for what the longer stay owes.
      expect((yield* pay(api, stay.reservation_id, { amount: "262.40" })).folio_balance).toBe("0.00")
    }))

  it.effect("If-Match: a stale tag is 412 precondition_failed and changes nothing; the current one goes ahead; idempotent", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const stay = yield* book(api, { check_in: "2031-06-10", check_out: "2031-06-12" })
      const [, read] = yield* api.client.reservationReads.get({ params: { id: stay.reservation_id }, responseMode: "decoded-and-response" })
      const tag = read.headers["etag"] ?? ""
      expect(tag).not.toBe("")
      yield* change(api, stay.reservation_id, { special_notes: "first" }, { ifMatch: tag })
      const stale = yield* patchReservation(api, stay.reservation_id, { adults: 1 }, { headers: { "if-match": tag } })
      expectError(stale, 412, "conflict", "precondition_failed")
      // After the status, the field rules and the 404s; before the rules of the stay.
      expectInvalid(yield* patchReservation(api, stay.reservation_id, { check_out: "2031-06-09" }, { headers: { "if-match": tag } }), "check_out")
      expectError(yield* patchReservation(api, stay.reservation_id, { room_type_id: missingId }, { headers: { "if-match": tag } }), 404, "not_found", "room_type_not_found")
      expectError(yield* patchReservation(api, stay.reservation_id, { adults: 21 }, { headers: { "if-match": tag } }), 400, "invalid_request", "invalid_parameters", "adults")
      expectError(yield* patchReservation(api, stay.reservation_id, { adults: 4 }, { headers: { "if-match": tag } }), 412, "conflict", "precondition_failed")
      yield* expectFailure(change(api, stay.reservation_id, { adults: 1 }, { ifMatch: tag }), PreconditionFailed)
      expect((yield* getReservation(api, stay.reservation_id)).adults).toBe(2)

      const lines = (yield* folioLines(api.sql, stay.folio_id)).length
      const headers = { "idempotency-key": `k-${globalThis.crypto.randomUUID()}` }
      const first = yield* patchReservation(api, stay.reservation_id, { check_out: "2031-06-13" }, { headers })
      const replay = yield* patchReservation(api, stay.reservation_id, { check_out: "2031-06-13" }, { headers })
      expect(first.status, first.text).toBe(200)
      expect(replay.status).toBe(200)
      expect(replay.text).toBe(first.text)
      expect(replay.headers.get("idempotent-replayed")).toBe("true")
      expect((yield* folioLines(api.sql, stay.folio_id)).length).toBe(lines + 4 + 5)
    }))

  it.effect("a checked-in stay keeps its room: a longer stay into another guest's nights in that room is 409 no_availability", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const { imported, key } = yield* importRoomTypes(api, { A: 2 })
      const plan = { room_type_id: imported.room_types["A"], rate_plan_id: imported.rate_plans["BAR-A"] }
      const client = yield* api.clientFor(key)
      const first = yield* book(api, { ...plan, check_in: "2031-07-10", check_out: "2031-07-12" }, { key, propertyId: imported.property_id })
      const second = yield* book(api, { ...plan, check_in: "2031-07-12", check_out: "2031-07-14" }, { key, propertyId: imported.property_id })
      yield* at("2031-07-10T10:00:00Z")
      const inFirst = yield* client.stay.checkIn({ headers: {}, params: { id: first.reservation_id }, payload: {} })
      yield* at("2031-07-12T09:00:00Z")
      const inSecond = yield* client.stay.checkIn({ headers: {}, params: { id: second.reservation_id }, payload: {} })
      expect(inSecond.room_id).toBe(inFirst.room_id)
      yield* expectFailure(change(api, first.reservation_id, { check_out: "2031-07-13" }, { key }), NoAvailability)
      expect((yield* client.reservationReads.get({ params: { id: first.reservation_id } })).check_out_date).toBe("2031-07-12")
    }))

  it.effect("a room of a booking keeps the booking's one currency: a plan in another is 400 currency_mismatch", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const booking = yield* bookRooms(api, bookingBody(guest, [dblRoom(api)], { check_in: "2031-08-10", check_out: "2031-08-12" }))
      const room = booking.reservations[0]?.reservation_id ?? ""
      const usd = { rate_plan_id: api.property.rate_plans["USD-DBL"] }
      yield* expectFailure(change(api, room, usd), CurrencyMismatch, "rate_plan_id")
      yield* expectFailure(changeQuote(api, room, usd), CurrencyMismatch, "rate_plan_id")
      expect((yield* getReservation(api, room)).currency).toBe("EUR")
    }))
})
