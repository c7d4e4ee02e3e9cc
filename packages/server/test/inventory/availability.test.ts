import { expect, layer } from "@effect/vitest"
import { SqlError } from "effect/sql/SqlError"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as TestClock from "effect/testing/TestClock"
import { InsufficientScope, InvalidParameters, MissingApiKey, RoomTypeNotFound } from "@hotel/domain"
import type { AvailabilityParams } from "@hotel/api/inventory/Api"
import { expectFailure, type HotelClient } from "../utils/client.js"
import { expectInvalid, withQuery } from "../utils/rateManagement.js"
import { expiredHold, insertReservation, liveHold, type ReservationSeed } from "../utils/sqlSeed.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

/** The calendar of a range through the typed client (`client`: the test's key by default). */
const calendar = (client: HotelClient, query: typeof AvailabilityParams.Type) =>
  Effect.map(client.availability.availability({ query }), (answer) => answer.data)

/** A raw path, for what the typed client would not send and for the exact wire of errors. */
const path = (params: Record<string, string>) => withQuery("/availability", params)

layer(TestApiLive, { excludeTestServices: true })("GET /availability", (it) => {
  it.effect("lists every room type's nights from start_date to end_date inclusive, uncached", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const [answer, response] = yield* api.client.availability.availability({
        query: { start_date: "2031-01-30", end_date: "2031-02-01" },
        responseMode: "decoded-and-response"
      })
      expect(response.headers["cache-control"]).toBe("no-store")
      expect(answer.data).toEqual([
        {
          room_type_id: api.property.room_types["DBL"],
          nights: [
            { date: "2031-01-30", rooms: 3, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 0, blocked: 0, available: 3 },
            { date: "2031-01-31", rooms: 3, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 0, blocked: 0, available: 3 },
            { date: "2031-02-01", rooms: 3, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 0, blocked: 0, available: 3 }
          ]
        },
        {
          room_type_id: api.property.room_types["STE"],
          nights: [
            { date: "2031-01-30", rooms: 1, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 0, blocked: 0, available: 1 },
            { date: "2031-01-31", rooms: 1, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 0, blocked: 0, available: 1 },
            { date: "2031-02-01", rooms: 1, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 0, blocked: 0, available: 1 }
          ]
        }
      ])
      // A single night: the start is the end.
      const one = yield* calendar(api.client, { start_date: "2031-01-30", end_date: "2031-01-30" })
      expect(one.map((r) => r.nights.length)).toEqual([1, 1])
    }))

  it.effect("takes rooms for live holds, confirmed and checked-in stays; not for expired holds or other statuses", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const dbl = api.property.room_types["DBL"]
      const book = (seed: Pick<ReservationSeed, "checkIn" | "checkOut" | "status" | "holdExpiresAt">) =>
        insertReservation(api.sql, api.property.property_id, {
          roomTypeId: dbl,
          ratePlanId: api.property.rate_plans["BAR-DBL"],
          ...seed
        })
      // Each takes the nights from check-in up to the night before check-out.
      yield* book({ checkIn: "2031-04-01", checkOut: "2031-04-03", status: "tentative", holdExpiresAt: liveHold() })
      yield* book({ checkIn: "2031-04-02", checkOut: "2031-04-04", status: "confirmed" })
      yield* book({ checkIn: "2031-04-02", checkOut: "2031-04-03", status: "checked_in" })
      // None of these take a room.
      yield* book({ checkIn: "2031-04-01", checkOut: "2031-04-05", status: "tentative", holdExpiresAt: expiredHold() })
      yield* book({ checkIn: "2031-04-01", checkOut: "2031-04-05", status: "cancelled" })
      yield* book({ checkIn: "2031-04-01", checkOut: "2031-04-05", status: "checked_out" })
      yield* book({ checkIn: "2031-04-01", checkOut: "2031-04-05", status: "no_show" })
      const [entry] = yield* calendar(api.client, { start_date: "2031-03-31", end_date: "2031-04-04", room_type_id: dbl })
      expect(entry.room_type_id).toBe(dbl)
      expect(entry.nights).toEqual([
        { date: "2031-03-31", rooms: 3, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 0, blocked: 0, available: 3 },
        { date: "2031-04-01", rooms: 3, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 1, blocked: 0, available: 2 },
        { date: "2031-04-02", rooms: 3, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 3, blocked: 0, available: 0 },
        { date: "2031-04-03", rooms: 3, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 1, blocked: 0, available: 2 },
        { date: "2031-04-04", rooms: 3, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 0, blocked: 0, available: 3 }
      ])
      // More bookings than rooms (say, a room retired under them) never show below zero.
      yield* book({ checkIn: "2031-04-02", checkOut: "2031-04-03", status: "confirmed" })
      const [again] = yield* calendar(api.client, { start_date: "2031-04-02", end_date: "2031-04-02", room_type_id: dbl })
      expect(again.nights).toEqual([{ date: "2031-04-02", rooms: 3, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 4, blocked: 0, available: 0 }])
    }))

  it.effect("a stay of 30 nights, the longest, takes its last night; the database refuses a longer one", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const dbl = api.property.room_types["DBL"]
      const book = (checkIn: string, checkOut: string) =>
        insertReservation(api.sql, api.property.property_id, {
          roomTypeId: dbl,
          ratePlanId: api.property.rate_plans["BAR-DBL"],
          checkIn,
          checkOut,
          status: "confirmed"
        })
      yield* book("2032-06-01", "2032-07-01")
      const night = (date: string) =>
        Effect.map(calendar(api.client, { start_date: date, end_date: date, room_type_id: dbl }), (data) => data[0].nights)
      // The inventory count reads only stays that arrived at most 30 days before the first night asked for.
      expect(yield* night("2032-06-30")).toEqual([{ date: "2032-06-30", rooms: 3, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 1, blocked: 0, available: 2 }])
      expect(yield* night("2032-06-01")).toEqual([{ date: "2032-06-01", rooms: 3, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 1, blocked: 0, available: 2 }])
      expect(yield* night("2032-07-01")).toEqual([{ date: "2032-07-01", rooms: 3, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 0, blocked: 0, available: 3 }])
      const longer = yield* Effect.exit(book("2032-08-01", "2032-09-01"))
      const refused = Exit.isFailure(longer) ? Cause.squash(longer.cause) : undefined
      expect(refused instanceof SqlError && refused.reason.cause).toMatchObject({ constraint: "reservations_stay_length" })
    }))

  it.effect("counts only rooms in service", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const dbl = api.property.room_types["DBL"]
      yield* api.sql`UPDATE rooms SET retired = true WHERE room_type_id = ${dbl} AND number = '103'`.pipe(Effect.orDie)
      const [entry] = yield* calendar(api.client, { start_date: "2031-06-01", end_date: "2031-06-01", room_type_id: dbl })
      expect(entry.nights).toEqual([{ date: "2031-06-01", rooms: 2, out_of_order: 0, sell_limit: null, overbooking: 0, taken: 0, blocked: 0, available: 2 }])
      yield* api.sql`UPDATE rooms SET retired = false WHERE room_type_id = ${dbl} AND number = '103'`.pipe(Effect.orDie)
    }))

  it.effect("validates the range: dates, order and at most 366 nights, naming end_date", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      // Malformed queries (which the typed client would not send) on the wire; well-formed ones through the client.
      const bad = (params: Record<string, string>, param: string) =>
        Effect.map(api.get(path(params)), (res) => expectInvalid(res, param))
      const refused = (query: typeof AvailabilityParams.Type, param: string) =>
        expectFailure(calendar(api.client, query), InvalidParameters, param)
      yield* bad({ end_date: "2031-01-01" }, "start_date")
      yield* bad({ start_date: "2031-01-01" }, "end_date")
      yield* bad({ start_date: "2031-13-01", end_date: "2031-01-01" }, "start_date")
      yield* refused({ start_date: "2031-01-02", end_date: "2031-01-01" }, "end_date")
      yield* refused({ start_date: "2031-01-01", end_date: "2032-01-02" }, "end_date")
      yield* bad({ start_date: "2031-01-01", end_date: "2031-01-05", room_type_id: "nope" }, "room_type_id")
      // 366 nights is the most.
      const year = yield* calendar(api.client, { start_date: "2031-01-01", end_date: "2032-01-01" })
      expect(year[0].nights).toHaveLength(366)
      const unknownType = { start_date: "2031-01-01", end_date: "2031-01-05", room_type_id: "00000000-0000-4000-8000-000000000000" }
      yield* expectFailure(calendar(api.client, unknownType), RoomTypeNotFound)
    }))

  it.effect("needs catalog:read", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = yield* api.createKey({ scopes: ["reservations:write"] })
      const range = { start_date: "2031-01-01", end_date: "2031-01-02" }
      const denied = yield* expectFailure(calendar(yield* api.clientFor(key), range), InsufficientScope)
      expect(denied.message).toContain("catalog:read")
      yield* expectFailure(calendar(yield* api.clientFor(null), range), MissingApiKey)
    }))

  it.effect("shows only the key's property", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const other = yield* api.importProperty()
      yield* insertReservation(api.sql, other.property_id, {
        roomTypeId: other.room_types["STE"],
        ratePlanId: other.rate_plans["BAR-STE"],
        checkIn: "2031-08-01",
        checkOut: "2031-08-02",
        status: "confirmed"
      })
      const mine = yield* calendar(api.client, { start_date: "2031-08-01", end_date: "2031-08-01" })
      expect(mine.map((r) => r.room_type_id)).toEqual([api.property.room_types["DBL"], api.property.room_types["STE"]])
      expect(mine[1].nights[0].available).toBe(1)
      yield* expectFailure(
        calendar(api.client, { start_date: "2031-08-01", end_date: "2031-08-01", room_type_id: other.room_types["STE"] }),
        RoomTypeNotFound
      )
      // The other property's key sees its own booking.
      const key = yield* api.createKey({ propertyId: other.property_id, scopes: ["catalog:read"] })
      const theirs = yield* calendar(yield* api.clientFor(key), { start_date: "2031-08-01", end_date: "2031-08-01" })
      expect(theirs.map((r) => r.room_type_id)).toEqual([other.room_types["DBL"], other.room_types["STE"]])
      expect(theirs[1].nights[0].available).toBe(0)
    }))
})

// The server on the TestClock (time starts at 1970-01-01T00:00:00Z): holds are judged by the application's
// clock, never the database's, so an expired hold is free the instant it expires.
layer(TestApiLive)("GET /availability on the test clock", (it) => {
  it.effect("a hold stops taking its room the instant hold_expires_at passes", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const dbl = api.property.room_types["DBL"]
      // Dates are 2000-01-01 to 2999-12-31, so the test clock starts in 2031 rather than at 1970.
      const t0 = Date.parse("2031-01-01T00:00:00Z")
      yield* TestClock.setTime(t0)
      yield* insertReservation(api.sql, api.property.property_id, {
        roomTypeId: dbl,
        ratePlanId: api.property.rate_plans["BAR-DBL"],
        checkIn: "2031-01-02",
        checkOut: "2031-01-03",
        status: "tentative",
        holdExpiresAt: new Date(t0 + 15 * 60_000)
      })
      const free = Effect.map(
        calendar(api.client, { start_date: "2031-01-02", end_date: "2031-01-02", room_type_id: dbl }),
        (data) => data[0].nights[0].available
      )
      expect(yield* free).toBe(2)
      yield* TestClock.adjust("14 minutes")
      expect(yield* free).toBe(2)
      yield* TestClock.adjust("1 minute")
      expect(yield* free).toBe(3)
    }))
})
