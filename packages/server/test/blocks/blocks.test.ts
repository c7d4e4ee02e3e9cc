import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { importRoomTypes } from "../utils/booking.js"
import {
  availabilityOf,
  blockAction,
  blockBody,
  type BlockPatch,
  type BlockRequest,
  createBlock,
  getBlock,
  nightFigures,
  patchBlock
} from "../utils/blocks.js"
import { expectFailure } from "../utils/client.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"
import {
  BlockNotFound,
  InsufficientScope,
  InvalidParameters,
  InvalidStatusTransition,
  NoAvailability,
  PreconditionFailed,
  RatePlanNotFound,
  RoomTypeNotFound
} from "@hotel/domain"

// Blocks through HTTP and Postgres: create (units or nights), reads, PATCH, confirm, release, cancel, their
// refusals on the wire, ETag/If-Match, and what a definite block does to `/availability`.

const range = { start_date: "2031-05-01", end_date: "2031-05-04" }

layer(TestApiLive)("blocks", (it) => {
  it.effect("a tentative block takes nothing; confirmed it takes its units from /availability, shown as blocked", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 3 })
      const id = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 2, price: "80.5", notes: "VIP" }), { key })
      const created = yield* getBlock(api, id, { key })
      expect(created).toMatchObject({
        id,
        name: "Wedding party",
        status: "tentative",
        price: "80.50",
        release_at: null,
        release_days_before: null,
        notes: "VIP",
        ...range
      })
      expect(nightFigures(created)).toEqual([
        ["2031-05-01", 2, 0, 2, false],
        ["2031-05-02", 2, 0, 2, false],
        ["2031-05-03", 2, 0, 2, false]
      ])
      const roomType = imported.room_types.A
      expect(yield* availabilityOf(api, roomType, "2031-05-01", "2031-05-01", { key })).toEqual([["2031-05-01", 0, 3]])
      // A tentative block takes nothing, so it has nothing to release.
      yield* expectFailure(blockAction(api, id, "release", { key }), InvalidStatusTransition)
      const confirmed = yield* blockAction(api, id, "confirm", { key })
      expect(confirmed.status).toBe("definite")
      expect(yield* availabilityOf(api, roomType, "2031-05-01", "2031-05-04", { key })).toEqual([
        ["2031-05-01", 2, 1],
        ["2031-05-02", 2, 1],
        ["2031-05-03", 2, 1],
        ["2031-05-04", 0, 3]
      ])
      yield* expectFailure(blockAction(api, id, "confirm", { key }), InvalidStatusTransition)
      const released = yield* blockAction(api, id, "release", { key })
      expect(released.status).toBe("released")
      expect(nightFigures(released)[0]).toEqual(["2031-05-01", 2, 0, 0, true])
      expect(yield* availabilityOf(api, roomType, "2031-05-01", "2031-05-01", { key })).toEqual([["2031-05-01", 0, 3]])
      const cancelled = yield* blockAction(api, id, "cancel", { key })
      expect(cancelled.status).toBe("cancelled")
      yield* expectFailure(blockAction(api, id, "cancel", { key }), InvalidStatusTransition)
    }))

  it.effect("nights set each night's units; a definite block needs the rooms free (409 no_availability, nothing written)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 2 })
      const nights = [{ date: "2031-05-01", units: 1 }, { date: "2031-05-03", units: 0 }, { date: "2031-05-02", units: 2 }]
      const { units: _units, ...byNight } = blockBody(imported, "A", { ...range, nights, status: "definite" })
      const id = yield* createBlock(api, byNight, { key })
      expect(nightFigures(yield* getBlock(api, id, { key })).map(([date, units]) => [date, units])).toEqual([
        ["2031-05-01", 1],
        ["2031-05-02", 2],
        ["2031-05-03", 0]
      ])
      yield* expectFailure(createBlock(api, blockBody(imported, "A", { ...range, status: "definite" }), { key }), NoAvailability)
      const { data } = yield* (yield* api.clientFor(key)).blocks.list({ query: {} })
      expect(data.map((block) => block.id)).toEqual([id])
      // Tentative, it may ask for what is taken: it takes nothing.
      yield* createBlock(api, blockBody(imported, "A", { ...range, units: 2 }), { key })
      const tentative = yield* (yield* api.clientFor(key)).blocks.list({ query: { status: "tentative" } })
      expect(tentative.data).toHaveLength(1)
    }))

  it.effect("refusals of POST /blocks name the field", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 2, B: 1 })
      const base = blockBody(imported, "A", range)
      const { units: _units, ...noUnits } = base
      // The rules between fields and against the room type reach the server; field formats are the wire's (raw).
      const refused = (body: BlockRequest, param: string) => expectFailure(createBlock(api, body, { key }), InvalidParameters, param)
      const post = (over: Record<string, unknown>) => api.post("/blocks", { ...base, ...over }, { key })
      yield* refused({ ...base, nights: [{ date: "2031-05-01", units: 1 }] }, "units")
      yield* refused(noUnits, "units")
      yield* refused({ ...base, units: 3 }, "units")
      expectInvalid(yield* post({ units: 0 }), "units")
      yield* refused({ ...base, end_date: "2031-05-01" }, "end_date")
      yield* refused({ ...base, start_date: "2031-01-01", end_date: "2032-01-03" }, "end_date")
      expectInvalid(yield* post({ start_date: "2031-02-30" }), "start_date")
      yield* refused({ ...noUnits, nights: [{ date: "2031-05-01", units: 1 }] }, "nights")
      yield* refused({ ...noUnits, nights: [{ date: "2031-05-05", units: 1 }] }, "nights[0].date")
      yield* refused({ ...noUnits, nights: [{ date: "2031-05-01", units: 1 }, { date: "2031-05-01", units: 1 }] }, "nights[1].date")
      yield* refused({ ...noUnits, nights: [{ date: "2031-05-01", units: 3 }] }, "nights[0].units")
      expectInvalid(yield* post({ status: "released" }), "status")
      expectInvalid(yield* post({ price: "12.345" }), "price")
      expectInvalid(yield* post({ price: "abc" }), "price")
      expectInvalid(yield* post({ release_days_before: 366 }), "release_days_before")
      expectInvalid(yield* post({ release_at: "2031-05-01" }), "release_at")
      expectInvalid(yield* post({ name: "" }), "name")
      yield* expectFailure(createBlock(api, { ...base, room_type_id: missingId }, { key }), RoomTypeNotFound)
      yield* expectFailure(createBlock(api, { ...base, rate_plan_id: missingId }, { key }), RatePlanNotFound)
      yield* expectFailure(createBlock(api, { ...base, rate_plan_id: imported.rate_plans["BAR-B"] }, { key }), RatePlanNotFound)
      yield* expectFailure(getBlock(api, missingId, { key }), BlockNotFound)
      expectError(yield* api.get("/blocks/not-an-id", { key }), 404, "not_found", "block_not_found")
      yield* expectFailure(blockAction(api, missingId, "confirm", { key }), BlockNotFound)
      expectInvalid(yield* api.get("/blocks?status=open", { key }), "status")
      // No refusal wrote a block.
      expect((yield* (yield* api.clientFor(key)).blocks.list({ query: {} })).data).toEqual([])
      // Another property's block is a missing one.
      const mine = yield* createBlock(api, blockBody(imported, "A", range), { key })
      yield* expectFailure(getBlock(api, mine), BlockNotFound)
    }))

  it.effect("scopes: blocks:read reads, blocks:write writes", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 2 })
      const id = yield* createBlock(api, blockBody(imported, "A", range), { key })
      const reader = yield* api.createKey({ propertyId: imported.property_id, scopes: ["blocks:read"] })
      expect((yield* getBlock(api, id, { key: reader })).id).toBe(id)
      yield* expectFailure(createBlock(api, blockBody(imported, "A", range), { key: reader }), InsufficientScope)
      const writer = yield* api.createKey({ propertyId: imported.property_id, scopes: ["blocks:write"] })
      yield* expectFailure(Effect.flatMap(api.clientFor(writer), (client) => client.blocks.list({ query: {} })), InsufficientScope)
      expect((yield* blockAction(api, id, "confirm", { key: writer })).status).toBe("definite")
    }))

  it.effect("PATCH changes fields and units (raising them needs free rooms); ETag, If-None-Match and If-Match", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 3 })
      const id = yield* createBlock(api, blockBody(imported, "A", { ...range, units: 1, status: "definite" }), { key })
      const updated = yield* patchBlock(api, id, {
        name: "Smith wedding",
        price: "70.00",
        notes: null,
        release_at: "2031-04-01T10:00:00+02:00",
        nights: [{ date: "2031-05-02", units: 3 }]
      }, { key })
      expect(updated).toEqual({ block_id: id, updated: true })
      const read = yield* getBlock(api, id, { key })
      expect(read).toMatchObject({ name: "Smith wedding", price: "70.00", notes: null, release_at: "2031-04-01T08:00:00.000Z" })
      expect(read.nights.map((night) => night.units)).toEqual([1, 3, 1])
      const patchRefused = (body: BlockPatch, param: string) => expectFailure(patchBlock(api, id, body, { key }), InvalidParameters, param)
      yield* patchRefused({ units: 1, nights: [] }, "units")
      yield* patchRefused({ nights: [{ date: "2031-05-04", units: 1 }] }, "nights[0].date")
      yield* patchRefused({ units: 4 }, "units")
      // Raising units needs free rooms: every room of the second night is already set aside.
      yield* createBlock(api, blockBody(imported, "A", { start_date: "2031-05-03", end_date: "2031-05-04", units: 2, status: "definite" }), { key })
      yield* expectFailure(patchBlock(api, id, { units: 2 }, { key }), NoAvailability)
      expect((yield* getBlock(api, id, { key })).nights.map((night) => night.units)).toEqual([1, 3, 1])

      const res = yield* api.get(`/blocks/${id}`, { key })
      const tag = res.headers.get("etag") ?? ""
      expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/)
      expect((yield* api.get(`/blocks/${id}`, { key, headers: { "if-none-match": tag } })).status).toBe(304)
      const stale = { key, headers: { "if-match": "\"stale\"" } }
      yield* expectFailure(patchBlock(api, id, { name: "x" }, stale), PreconditionFailed)
      yield* expectFailure(blockAction(api, id, "release", stale), PreconditionFailed)
      expect(yield* patchBlock(api, id, { name: "y" }, { key, headers: { "if-match": tag } })).toEqual({ block_id: id, updated: true })
      expect((yield* getBlock(api, id, { key })).name).toBe("y")
      yield* expectFailure(blockAction(api, id, "confirm", { key }), InvalidStatusTransition)
    }))

  it.effect("each write appends its block event (data: the block as GET shows it), and availability.changed when it takes or frees nights", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 2 })
      const client = yield* api.clientFor(key)
      const id = yield* createBlock(api, blockBody(imported, "A", range), { key })
      yield* patchBlock(api, id, { name: "Renamed" }, { key })
      yield* blockAction(api, id, "confirm", { key })
      yield* blockAction(api, id, "release", { key })
      const final = yield* blockAction(api, id, "cancel", { key })
      const { data } = yield* client.events.list({ query: { types: ["block.created", "block.updated", "block.confirmed", "block.released", "block.cancelled", "availability.changed"] } })
      expect(data.map((event) => event.type)).toEqual([
        "block.created",
        "block.updated",
        "block.confirmed",
        "availability.changed",
        "block.released",
        "availability.changed",
        "block.cancelled"
      ])
      expect(data[1].data).toMatchObject({ id, name: "Renamed", status: "tentative" })
      expect(data[3].data).toEqual({ room_type_id: imported.room_types.A, ...range })
      expect(data.at(-1)?.data).toEqual(final)
    }))

  it.effect("/rates sees a definite block: sold_out when only blocked rooms are left", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 2 })
      const client = yield* api.clientFor(key)
      const query = { check_in: "2031-05-01", check_out: "2031-05-02", adults: 1, room_type_id: imported.room_types.A, include_unavailable: true }
      const before = yield* client.rates.rates({ query: query })
      expect(before.data.map((offer) => [offer.available, offer.reasons])).toEqual([[2, []]])
      yield* createBlock(api, blockBody(imported, "A", { ...range, units: 2, status: "definite" }), { key })
      const after = yield* client.rates.rates({ query: query })
      expect(after.data.map((offer) => [offer.available, offer.reasons])).toEqual([[0, ["sold_out"]]])
    }))
})
