import { expect, layer } from "@effect/vitest"
import { InsufficientScope, InvalidParameters, RoomTypeNotFound } from "@hotel/domain"
import { HoldSweeper } from "@hotel/persistence/booking/HoldSweeper"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { cancel, confirm, getReservation, hold, holdBody, newGuest } from "../utils/booking.js"
import { clientOf, expectFailure } from "../utils/client.js"
import { expectInvalid, missingId } from "../utils/rateManagement.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"
import { propertyFile } from "../utils/fixtures.js"
import { allEvents, feed, feedPage } from "./feed.js"

// The event feed through real HTTP and Postgres. The server runs on the TestClock so hold
// expiry is reached by moving the clock. Each test imports its own property, so its feed starts empty.

const T0 = Date.parse("2031-01-05T09:00:00Z")
const minutes = (n: number) => n * 60_000

/**
 * A property of the test's own, a key and a guest. Its feed starts with the import's `rate_plan.created`
 * events: `imported` counts them, `after` is the last (the test's own events follow it).
 */
const ownProperty = (api: TestApiService) =>
  Effect.gen(function*() {
    const property = yield* api.importProperty()
    const key = yield* api.createKey({ propertyId: property.property_id })
    const imports = yield* allEvents(api, key)
    expect(imports.map((e) => e.type)).toEqual(Object.keys(property.rate_plans).map(() => "rate_plan.created"))
    const guest = yield* newGuest(api, property.property_id)
    const after = imports.at(-1)?.id ?? ""
    return { property, key, guest, imported: imports.length, after }
  })

/** Sequences counted from the first event after the import's `imported` ones. */
const sequences = (imported: number, ...ns: ReadonlyArray<number>) => ns.map((n) => imported + n)

layer(TestApiLive)("event feed", (it) => {
  it.effect("hold, confirm and cancel publish their events in order, data as GET shows it; a failed request none", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { after, guest, imported, key, property } = yield* ownProperty(api)
      const body = holdBody(api, guest, {}, property)
      const held = yield* hold(api, body, { key })
      const afterHold = yield* getReservation(api, held.reservation_id, { key })
      yield* confirm(api, held.reservation_id, {}, { key })
      const afterConfirm = yield* getReservation(api, held.reservation_id, { key })
      const cancelled = yield* cancel(api, held.reservation_id, {}, { key })
      const afterCancel = yield* getReservation(api, held.reservation_id, { key })
      // A request that fails (unknown room type) writes nothing, so it publishes nothing.
      const failed = yield* expectFailure(hold(api, { ...body, room_type_id: missingId }, { key }), RoomTypeNotFound)
      expect(failed.message).toContain(missingId)

      const events = yield* allEvents(api, key, { after })
      expect(events.map((e) => e.type)).toEqual([
        "reservation.held",
        "availability.changed",
        "reservation.confirmed",
        "reservation.cancelled",
        "availability.changed"
      ])
      expect(events.map((e) => e.sequence)).toEqual(sequences(imported, 1, 2, 3, 4, 5))
      for (const event of events) {
        expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/)
        expect(event.created_at).toBe(new Date(T0).toISOString())
      }
      expect(events[0].data).toEqual(afterHold)
      expect(events[2].data).toEqual(afterConfirm)
      expect(events[3].data).toEqual({ ...afterCancel, refund_due_minor: cancelled.refund_due_minor })
      const nights = { room_type_id: body.room_type_id, start_date: body.check_in, end_date: body.check_out }
      expect(events[1].data).toEqual(nights)
      expect(events[4].data).toEqual(nights)
    }))

  it.effect("a property import publishes rate_plan.created / rate_plan.updated for the plans it writes, nothing when it changes none", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const file = propertyFile(`EV${Date.now().toString(36).toUpperCase()}`)
      const property = yield* api.importProperty(file)
      const key = yield* api.createKey({ propertyId: property.property_id })
      const created = yield* allEvents(api, key)
      const planIds = Object.values(property.rate_plans)
      expect(created.map((e) => [e.type, e.data["id"]])).toEqual(planIds.map((id) => ["rate_plan.created", id]))
      const client = yield* clientOf(api, { key })
      expect(created[0].data).toEqual(yield* client.ratePlanReads.get({ params: { id: planIds[0] } }))
      const last = created[created.length - 1].id
      // the same file again changes nothing
      yield* api.importProperty(file)
      expect(yield* allEvents(api, key, { after: last })).toEqual([])
      const renamed = { ...file, rate_plans: file.rate_plans.map((plan, i) => (i === 0 ? { ...plan, name: "Renamed" } : plan)) }
      yield* api.importProperty(renamed)
      const updated = yield* allEvents(api, key, { after: last })
      expect(updated.map((e) => [e.type, e.data["id"], e.data["name"]])).toEqual([["rate_plan.updated", planIds[0], "Renamed"]])
    }))

  it.effect("the sweeper publishes reservation.expired and availability.changed with the expired hold", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const sweeper = yield* HoldSweeper
      yield* TestClock.setTime(T0 + minutes(60))
      const { after, guest, key, property } = yield* ownProperty(api)
      const body = holdBody(api, guest, { check_in: "2031-04-01", check_out: "2031-04-03" }, property)
      const held = yield* hold(api, body, { key })
      yield* TestClock.setTime(T0 + minutes(75))
      expect(yield* sweeper.sweep()).toBeGreaterThanOrEqual(1)
      const events = yield* allEvents(api, key, { after })
      expect(events.map((e) => e.type)).toEqual([
        "reservation.held",
        "availability.changed",
        "reservation.expired",
        "availability.changed"
      ])
      expect(events[2].data).toEqual(yield* getReservation(api, held.reservation_id, { key }))
      expect(events[2].data).toMatchObject({ status: "cancelled", cancellation_reason: "hold_expired" })
      expect(events[3].data).toEqual({ room_type_id: body.room_type_id, start_date: "2031-04-01", end_date: "2031-04-03" })
    }).pipe(Effect.provide(HoldSweeper.layer)))

  it.effect("pages with after and limit, filters by types, refuses unknown after, types and limits", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { after, guest, imported, key, property } = yield* ownProperty(api)
      for (const [checkIn, checkOut] of [["2031-05-01", "2031-05-02"], ["2031-05-05", "2031-05-06"], ["2031-05-09", "2031-05-10"]]) {
        yield* hold(api, holdBody(api, guest, { check_in: checkIn, check_out: checkOut }, property), { key })
      }
      const all = yield* allEvents(api, key, { after })
      expect(all).toHaveLength(6)
      const first = yield* feedPage(api, { limit: 4, after }, key)
      expect(first.data.map((e) => e.sequence)).toEqual(sequences(imported, 1, 2, 3, 4))
      expect(first.has_more).toBe(true)
      const rest = yield* feedPage(api, { limit: 4, after: all[3].id }, key)
      expect(rest.data.map((e) => e.sequence)).toEqual(sequences(imported, 5, 6))
      expect(rest.has_more).toBe(false)
      const held = yield* feedPage(api, { types: ["reservation.held"] }, key)
      expect(held.data.map((e) => e.sequence)).toEqual(sequences(imported, 1, 3, 5))
      const both = yield* feedPage(api, { types: ["reservation.held", "availability.changed"], after: all[0].id, limit: 2 }, key)
      expect(both.data.map((e) => e.sequence)).toEqual(sequences(imported, 2, 3))
      expect(yield* feedPage(api, { after: all[5].id }, key)).toEqual({ data: [], has_more: false })

      // An unknown cursor on the wire once; another property's event is unknown here too.
      expectInvalid((yield* feed(api, "?after=evt_00000000000000000000000000000000", key)).res, "after")
      yield* expectFailure(feedPage(api, { after: all[0].id }), InvalidParameters, "after")
      // Malformed queries, which the typed client would not send.
      expectInvalid((yield* feed(api, "?types=reservation.held,reservation.teleported", key)).res, "types")
      expectInvalid((yield* feed(api, "?limit=0", key)).res, "limit")
      expectInvalid((yield* feed(api, "?limit=501", key)).res, "limit")
      const narrow = yield* api.createKey({ propertyId: property.property_id, scopes: ["reservations:read"] })
      yield* expectFailure(feedPage(api, {}, narrow), InsufficientScope)
    }))

  it.effect("32 concurrent writers: a reader following the feed sees every sequence once, with no gap or reorder", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { after: imports, imported, key } = yield* ownProperty(api)
      const client = yield* clientOf(api, { key })
      const writers = 32
      const guestIds: Array<string> = []
      let done = false
      const seen: Array<number> = []
      const reader = Effect.gen(function*() {
        let after = imports
        for (;;) {
          const finished = done
          const { data } = yield* feedPage(api, { limit: 500, ...(after === "" ? {} : { after }) }, key)
          seen.push(...data.map((e) => e.sequence))
          if (data.length > 0) after = data[data.length - 1].id
          if (finished && data.length === 0) return
        }
      })
      const write = (i: number) =>
        Effect.map(client.guests.create({ headers: {}, payload: { first_name: `Writer${i}`, last_name: "Concurrent" } }), (created) => {
          guestIds.push(created.guest_id)
        })
      yield* Effect.all([
        Effect.forEach(Array.from({ length: writers }, (_, i) => i), write, { concurrency: "unbounded" }).pipe(
          Effect.ensuring(Effect.sync(() => (done = true)))
        ),
        reader
      ], { concurrency: "unbounded" })
      expect(seen).toEqual(Array.from({ length: writers }, (_, i) => imported + i + 1))
      const events = yield* allEvents(api, key, { after: imports })
      expect(events.every((e) => e.type === "guest.created")).toBe(true)
      expect(new Set(events.map((e) => e.data["id"])).size).toBe(writers)
      expect(new Set(events.map((e) => e.data["id"]))).toEqual(new Set(guestIds))
    }))
})
