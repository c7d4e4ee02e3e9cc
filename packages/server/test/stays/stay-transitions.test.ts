import { expect, layer } from "@effect/vitest"
import {
  InsufficientScope,
  InvalidParameters,
  InvalidStatusTransition,
  MissingApiKey,
  NoAvailability,
  ReservationNotFound,
  RoomNotFound,
  RoomUnavailable,
  type Stay
} from "@hotel/domain"
import { StayTransitioned } from "@hotel/api/stays/Api"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { cancel, getReservation, importRoomTypes } from "../utils/booking.js"
import { bodyAs, expectFailure, type HotelClient } from "../utils/client.js"
import type { ApiResponse, RequestOptions } from "../utils/http.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { book, expire, localDay, seedStay, stored } from "../utils/stay.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"
import { allEvents } from "../events/feed.js"

// POST /reservations/{id}/check-in, /check-out, /no-show. "Today" is the property's local date
// (Europe/Lisbon) from the real clock, so stays to check in start today; past arrivals are seeded with SQL.
// Well-formed calls go through the typed client (`move`); raw requests (`act`) stay for malformed input and for
// the wire of each refusal once.

type Action = "check-in" | "check-out" | "no-show"

/** A transition through the typed client; `payload` (the room) only for a check-in. */
const move = (client: HotelClient, id: string, action: Action, payload: Stay.CheckIn = {}) => {
  const params = { id }
  return action === "check-in"
    ? client.stay.checkIn({ headers: {}, params, payload })
    : action === "check-out"
    ? client.stay.checkOut({ headers: {}, params })
    : client.stay.noShow({ headers: {}, params })
}

/** A transition the reservation's state refuses (409 invalid_status_transition), decoded. */
const refusedMove = (client: HotelClient, id: string, action: Action) =>
  expectFailure(move(client, id, action), InvalidStatusTransition)

const act = (api: TestApiService, id: string, action: Action, body?: unknown, options?: RequestOptions) =>
  api.post(`/reservations/${id}/${action}`, body, options)

const ok = (res: ApiResponse) => {
  expect(res.status, res.text).toBe(200)
  return bodyAs(res, StayTransitioned)
}

const refused = (res: ApiResponse) => expectError(res, 409, "conflict", "invalid_status_transition")

/** A property of its own (room numbers `<type>-1`, `<type>-2`...), its key, and booking and room helpers. */
const property = (api: TestApiService, roomTypes: Record<string, number>) =>
  Effect.gen(function*() {
    const { imported, key } = yield* importRoomTypes(api, roomTypes)
    const client = yield* api.clientFor(key)
    const rooms = new Map<string, string>()
    for (const type of (yield* client.catalog.roomTypes()).data) {
      for (const room of type.rooms) rooms.set(room.number, room.id)
    }
    const room = (number: string) => {
      const id = rooms.get(number)
      if (id === undefined) throw new Error(`no room ${number}`)
      return id
    }
    const bookStay = (nights: { from: number; to: number }, options: { type?: string; tentative?: boolean } = {}) =>
      book(api, {
        room_type_id: imported.room_types[options.type ?? "DBL"],
        rate_plan_id: imported.rate_plans[`BAR-${options.type ?? "DBL"}`],
        check_in: localDay(nights.from),
        check_out: localDay(nights.to)
      }, { key, propertyId: imported.property_id, tentative: options.tentative ?? false })
    const as = { key }
    return { imported, key, as, client, room, bookStay }
  })

layer(TestApiLive, { excludeTestServices: true })("stay transitions", (it) => {
  it.effect("check-in on the arrival date assigns the free room with the lowest number; check-out releases it", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const p = yield* property(api, { DBL: 2, STE: 1 })
      const first = yield* p.bookStay({ from: 0, to: 2 })
      const [checkedInFirst, res] = yield* p.client.stay.checkIn({ headers: {},
        params: { id: first.reservation_id },
        payload: {},
        responseMode: "decoded-and-response"
      })
      expect(res.headers["cache-control"]).toBe("no-store")
      expect(checkedInFirst).toEqual({ reservation_id: first.reservation_id, status: "checked_in", room_id: p.room("DBL-1") })
      const reservation = yield* getReservation(api, first.reservation_id, p.as)
      expect(reservation.status).toBe("checked_in")
      expect(reservation.accommodations.map((a) => [a.room_id, a.status])).toEqual([[p.room("DBL-1"), "checked_in"]])

      // No body at all is an empty one (the typed client always sends `{}`).
      const second = yield* p.bookStay({ from: 0, to: 1 })
      const checkedIn = yield* api.request("POST", `/reservations/${second.reservation_id}/check-in`, p.as)
      expect(ok(checkedIn).room_id).toBe(p.room("DBL-2"))

      const out = yield* move(p.client, first.reservation_id, "check-out")
      expect(out).toEqual({ reservation_id: first.reservation_id, status: "checked_out", room_id: p.room("DBL-1") })
      const after = yield* getReservation(api, first.reservation_id, p.as)
      expect([after.status, after.accommodations[0].status, after.accommodations[0].room_id])
        .toEqual(["checked_out", "checked_out", p.room("DBL-1")])
      // The stay's nights are free again: the feed says so right after the check-out.
      const events = yield* allEvents(api, p.key, { types: "reservation.checked_out,availability.changed" })
      expect(events.slice(-2).map((e) => [e.type, e.type === "availability.changed" ? e.data : e.data["id"]])).toEqual([
        ["reservation.checked_out", first.reservation_id],
        ["availability.changed", { room_type_id: p.imported.room_types["DBL"], start_date: localDay(0), end_date: localDay(2) }]
      ])

      // Checked out, the room is free again for the nights it was held.
      const third = yield* p.bookStay({ from: 0, to: 3 })
      expect((yield* move(p.client, third.reservation_id, "check-in")).room_id).toBe(p.room("DBL-1"))

      // Nothing moves a checked-out stay; a checked-in one only checks out.
      for (const action of ["check-in", "check-out", "no-show"] as const) {
        expect((yield* refusedMove(p.client, first.reservation_id, action)).message).toContain("checked out")
      }
      for (const action of ["check-in", "no-show"] as const) {
        expect((yield* refusedMove(p.client, second.reservation_id, action)).message).toContain("checked in")
      }
      expect((yield* stored(api.sql, second.reservation_id)).status).toBe("checked_in")
    }))

  it.effect("check-in with a room_id: that room when it is free; 404, 400 and 409 otherwise, in that order", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const p = yield* property(api, { DBL: 3, STE: 1 })
      const a = yield* p.bookStay({ from: 0, to: 2 })
      expect((yield* move(p.client, a.reservation_id, "check-in", { room_id: p.room("DBL-3") })).room_id).toBe(p.room("DBL-3"))

      const b = yield* p.bookStay({ from: 0, to: 1 })
      const held = yield* p.bookStay({ from: 0, to: 1 }, { tentative: true })
      const taken = expectError(
        yield* act(api, b.reservation_id, "check-in", { room_id: p.room("DBL-3") }, p.as),
        409,
        "conflict",
        "room_unavailable"
      )
      expect(taken.message).toContain("DBL-3")
      const checkIn = (id: string, room_id: string | null) => move(p.client, id, "check-in", { room_id })
      // A room of another type is the service's check of a well-formed id.
      const otherType = yield* expectFailure(checkIn(b.reservation_id, p.room("STE-1")), InvalidParameters, "room_id")
      expect(otherType.message).toContain("STE-1")
      expectError(yield* act(api, b.reservation_id, "check-in", { room_id: missingId }, p.as), 404, "not_found", "room_not_found")
      // Another property's room is an unknown one.
      const fixtureRooms = yield* api.client.catalog.roomTypes()
      const foreign = fixtureRooms.data[0].rooms[0].id
      yield* expectFailure(checkIn(b.reservation_id, foreign), RoomNotFound)
      for (const roomId of ["101", 101, true]) {
        expectInvalid(yield* act(api, b.reservation_id, "check-in", { room_id: roomId }, p.as), "room_id")
      }
      // A retired room is out of service.
      yield* api.sql`UPDATE rooms SET retired = true WHERE id = ${p.room("DBL-2")}`.pipe(Effect.orDie)
      yield* expectFailure(checkIn(b.reservation_id, p.room("DBL-2")), RoomUnavailable)
      expect((yield* stored(api.sql, b.reservation_id))).toEqual({ status: "confirmed", room_id: null, leg_status: "confirmed" })

      // The room is looked up before the transition is judged, which comes before the room's availability.
      yield* expectFailure(checkIn(held.reservation_id, missingId), RoomNotFound)
      yield* expectFailure(checkIn(held.reservation_id, p.room("STE-1")), InvalidParameters, "room_id")
      yield* expectFailure(checkIn(held.reservation_id, p.room("DBL-3")), InvalidStatusTransition)

      // room_id null assigns the lowest free room in service: DBL-1 (DBL-2 retired, DBL-3 taken).
      expect((yield* checkIn(b.reservation_id, null)).room_id).toBe(p.room("DBL-1"))
    }))

  it.effect("every refused transition is 409 invalid_status_transition; the allowed ones move the status", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const all = ["check-in", "check-out", "no-show"] as const
      const refusedAll = (id: string, actions: ReadonlyArray<Action>, text: string) =>
        Effect.forEach(actions, (action) =>
          Effect.map(refusedMove(api.client, id, action), (error) => expect(error.message, action).toContain(text)))
      const moved = (id: string, action: Action) => move(api.client, id, action)

      // A live hold arriving today: confirm it first.
      const held = yield* book(api, { check_in: localDay(0), check_out: localDay(1) }, { tentative: true })
      yield* refusedAll(held.reservation_id, all, "tentative hold")
      // An expired hold reads as cancelled.
      yield* expire(api.sql, held.reservation_id)
      yield* refusedAll(held.reservation_id, all, "cancelled")

      // Confirmed, arriving tomorrow: not yet checked in, not yet a no-show, not checked out.
      const tomorrow = yield* book(api, { check_in: localDay(1), check_out: localDay(2) })
      // The refusal's wire once; the typed client checks the others.
      expect(refused(yield* act(api, tomorrow.reservation_id, "check-in")).message).toContain(`arrival date ${localDay(1)}`)
      expect((yield* refusedMove(api.client, tomorrow.reservation_id, "no-show")).message).toContain(localDay(1))
      yield* refusedAll(tomorrow.reservation_id, ["check-out"], "confirmed")

      // Confirmed, arriving today: the arrival date has not passed, so no no-show yet.
      const today = yield* book(api, { check_in: localDay(0), check_out: localDay(2) })
      yield* refusedAll(today.reservation_id, ["no-show"], "has passed")
      yield* refusedAll(today.reservation_id, ["check-out"], "confirmed")
      expect((yield* moved(today.reservation_id, "check-in")).status).toBe("checked_in")
      yield* refusedAll(today.reservation_id, ["check-in", "no-show"], "checked in")
      expect((yield* moved(today.reservation_id, "check-out")).status).toBe("checked_out")
      yield* refusedAll(today.reservation_id, all, "checked out")

      // Cancelled.
      const cancelled = yield* book(api, { check_in: localDay(0), check_out: localDay(1) })
      expect((yield* cancel(api, cancelled.reservation_id)).status).toBe("cancelled")
      yield* refusedAll(cancelled.reservation_id, all, "cancelled")

      // A late arrival (confirmed, arrival yesterday, leaving tomorrow) may still check in.
      const late = yield* seedStay(api, { checkIn: localDay(-1), checkOut: localDay(1), status: "confirmed" })
      const lateIn = yield* moved(late.reservation_id, "check-in")
      expect(lateIn.status).toBe("checked_in")
      expect(lateIn.room_id).not.toBeNull()

      // A stay that ended without the guest: no check-in any more, a no-show.
      const ended = yield* seedStay(api, { checkIn: localDay(-5), checkOut: localDay(-2), status: "confirmed" })
      expect((yield* refusedMove(api.client, ended.reservation_id, "check-in")).message).toContain(`ended on ${localDay(-2)}`)
      const noShow = yield* moved(ended.reservation_id, "no-show")
      expect(noShow).toEqual({ reservation_id: ended.reservation_id, status: "no_show", room_id: null })
      expect(yield* stored(api.sql, ended.reservation_id)).toEqual({ status: "no_show", room_id: null, leg_status: "no_show" })
      expect((yield* getReservation(api, ended.reservation_id)).status).toBe("no_show")
      yield* refusedAll(ended.reservation_id, all, "no show")

      // Arrival yesterday, still confirmed: the arrival date has passed, a no-show is recorded, and the stay no
      // longer takes inventory (of tomorrow's night, only `tomorrow` and `missed` held a room).
      const missed = yield* seedStay(api, { checkIn: localDay(-1), checkOut: localDay(2), status: "confirmed" })
      const availableTomorrow = Effect.map(
        api.client.availability.availability({
          query: { start_date: localDay(1), end_date: localDay(1), room_type_id: api.property.room_types["DBL"] }
        }),
        (res) => res.data[0].nights[0].available
      )
      expect(yield* availableTomorrow).toBe(1)
      expect((yield* moved(missed.reservation_id, "no-show")).status).toBe("no_show")
      expect(yield* availableTomorrow).toBe(2)

      // A seeded checked-in stay checks out.
      const staying = yield* seedStay(api, { checkIn: localDay(-3), checkOut: localDay(0), status: "checked_in" })
      expect((yield* moved(staying.reservation_id, "check-out")).status).toBe("checked_out")
    }))

  it.effect("concurrent check-ins never get the same room for overlapping nights", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      for (let round = 0; round < 3; round++) {
        const p = yield* property(api, { DBL: 4 })
        const stays = yield* Effect.forEach([0, 1, 2, 3], () => p.bookStay({ from: 0, to: 2 }))
        const results = yield* Effect.all(
          stays.map((s) => move(p.client, s.reservation_id, "check-in")),
          { concurrency: "unbounded" }
        )
        const rooms = results.map((res) => res.room_id)
        expect(new Set(rooms).size).toBe(4)
        expect(new Set(rooms)).toEqual(new Set(["DBL-1", "DBL-2", "DBL-3", "DBL-4"].map(p.room)))
      }

      // Fewer rooms in service than stays: the last one finds none (409 no_availability), none is doubled.
      const p = yield* property(api, { DBL: 3 })
      const stays = yield* Effect.forEach([0, 1, 2], () => p.bookStay({ from: 0, to: 1 }))
      yield* api.sql`UPDATE rooms SET retired = true WHERE id = ${p.room("DBL-2")}`.pipe(Effect.orDie)
      // Each ends as a success or its decoded error class.
      const outcome = <A>(result: Result.Result<A, { readonly _tag: string }>) =>
        Result.isSuccess(result) ? "ok" : result.failure._tag
      const results = yield* Effect.all(
        stays.map((s) => Effect.result(move(p.client, s.reservation_id, "check-in"))),
        { concurrency: "unbounded" }
      )
      expect(results.map(outcome).sort()).toEqual(["NoAvailability", "ok", "ok"])
      expect(results.flatMap((r) => (Result.isFailure(r) ? [r.failure] : []))[0]).toBeInstanceOf(NoAvailability)
      expect(new Set(results.flatMap((r) => (Result.isSuccess(r) ? [r.success.room_id] : []))))
        .toEqual(new Set([p.room("DBL-1"), p.room("DBL-3")]))

      // Two check-ins asking for the same room at once: one gets it, the other 409 room_unavailable.
      const q = yield* property(api, { DBL: 2 })
      const pair = yield* Effect.forEach([0, 1], () => q.bookStay({ from: 0, to: 2 }))
      const raced = yield* Effect.all(
        pair.map((s) => Effect.result(move(q.client, s.reservation_id, "check-in", { room_id: q.room("DBL-2") }))),
        { concurrency: "unbounded" }
      )
      expect(raced.map(outcome).sort()).toEqual(["RoomUnavailable", "ok"])
      expect(raced.flatMap((r) => (Result.isFailure(r) ? [r.failure] : []))[0]).toBeInstanceOf(RoomUnavailable)

      // The database refuses a doubled room even without the lock.
      const [winner, loser] = Result.isSuccess(raced[0]) ? pair : [pair[1], pair[0]]
      expect((yield* stored(api.sql, winner.reservation_id)).room_id).toBe(q.room("DBL-2"))
      const doubled = yield* api.sql`
        UPDATE accommodations SET room_id = ${q.room("DBL-2")}, status = 'checked_in'
        WHERE reservation_id = ${loser.reservation_id}`.pipe(Effect.flip)
      expect(doubled.reason.cause).toMatchObject({ code: "23P01", constraint: "accommodations_room_not_doubled" })
    }))

  it.effect("scope reservations:write; unknown, malformed and another property's reservations are 404", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const stay = yield* book(api, { check_in: localDay(0), check_out: localDay(1) })
      const all = ["check-in", "check-out", "no-show"] as const
      for (const scopes of [["reservations:read"], ["folios:write", "guests:write"]] as const) {
        const client = yield* api.clientFor(yield* api.createKey({ scopes }))
        for (const action of all) {
          const denied = yield* expectFailure(move(client, stay.reservation_id, action), InsufficientScope)
          expect(denied.message).toContain("reservations:write")
        }
      }
      const anonymous = yield* api.clientFor(null)
      for (const action of all) {
        for (const id of [missingId, stay.folio_id]) {
          yield* expectFailure(move(api.client, id, action), ReservationNotFound)
        }
        // A malformed id (which the typed client would not send) is the same 404 on the wire.
        expectError(yield* act(api, "R-1", action), 404, "not_found", "reservation_not_found")
        yield* expectFailure(move(anonymous, stay.reservation_id, action), MissingApiKey)
      }
      const other = yield* api.importProperty()
      const otherClient = yield* api.clientFor(yield* api.createKey({ propertyId: other.property_id }))
      for (const action of all) {
        yield* expectFailure(move(otherClient, stay.reservation_id, action), ReservationNotFound)
      }
      expect((yield* stored(api.sql, stay.reservation_id)).status).toBe("confirmed")
      const writer = yield* api.clientFor(yield* api.createKey({ scopes: ["reservations:write"] }))
      expect((yield* move(writer, stay.reservation_id, "check-in")).status).toBe("checked_in")
    }))
})
