import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { importRoomTypes } from "../utils/booking.js"
import { availabilityOf, blockAction, blockBody, createBlock, getBlock, nightFigures, patchBlock } from "../utils/blocks.js"
import { expectFailure } from "../utils/client.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"
import { InvalidStatusTransition, PreconditionFailed } from "@hotel/domain"

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
      expectError(yield* api.post(`/blocks/${id}/release`, {}, { key }), 409, "conflict", "invalid_status_transition")
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
      expectError(yield* api.post(`/blocks/${id}/cancel`, {}, { key }), 409, "conflict", "invalid_status_transition")
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
      const second = yield* api.post("/blocks", blockBody(imported, "A", { ...range, status: "definite" }), { key })
      expectError(second, 409, "conflict", "no_availability")
      const { data } = yield* (yield* api.clientFor(key)).blocks.list({ urlParams: {} })
      expect(data.map((block) => block.id)).toEqual([id])
      // Tentative, it may ask for what is taken: it takes nothing.
      yield* createBlock(api, blockBody(imported, "A", { ...range, units: 2 }), { key })
      const tentative = yield* (yield* api.clientFor(key)).blocks.list({ urlParams: { status: "tentative" } })
      expect(tentative.data).toHaveLength(1)
    }))

  it.effect("refusals of POST /blocks name the field", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 2, B: 1 })
      const post = (over: Record<string, unknown>) => api.post("/blocks", { ...blockBody(imported, "A", range), ...over }, { key })
      expectInvalid(yield* post({ nights: [{ date: "2031-05-01", units: 1 }] }), "units")
      expectInvalid(yield* post({ units: undefined }), "units")
      expectInvalid(yield* post({ units: 3 }), "units")
      expectInvalid(yield* post({ units: 0 }), "units")
      expectInvalid(yield* post({ end_date: "2031-05-01" }), "end_date")
      expectInvalid(yield* post({ start_date: "2031-01-01", end_date: "2032-01-03" }), "end_date")
      expectInvalid(yield* post({ start_date: "2031-02-30" }), "start_date")
      expectInvalid(yield* post({ units: undefined, nights: [{ date: "2031-05-01", units: 1 }] }), "nights")
      expectInvalid(yield* post({ units: undefined, nights: [{ date: "2031-05-05", units: 1 }] }), "nights[0].date")
      expectInvalid(
        yield* post({ units: undefined, nights: [{ date: "2031-05-01", units: 1 }, { date: "2031-05-01", units: 1 }] }),
        "nights[1].date"
      )
      expectInvalid(yield* post({ units: undefined, nights: [{ date: "2031-05-01", units: 3 }] }), "nights[0].units")
      expectInvalid(yield* post({ status: "released" }), "status")
      expectInvalid(yield* post({ price: "12.345" }), "price")
      expectInvalid(yield* post({ price: "abc" }), "price")
      expectInvalid(yield* post({ release_days_before: 366 }), "release_days_before")
      expectInvalid(yield* post({ release_at: "2031-05-01" }), "release_at")
      expectInvalid(yield* post({ name: "" }), "name")
      expectError(yield* post({ room_type_id: missingId }), 404, "not_found", "room_type_not_found")
      expectError(yield* post({ rate_plan_id: missingId }), 404, "not_found", "rate_plan_not_found")
      expectError(yield* post({ rate_plan_id: imported.rate_plans["BAR-B"] }), 404, "not_found", "rate_plan_not_found")
      expectError(yield* api.get(`/blocks/${missingId}`, { key }), 404, "not_found", "block_not_found")
      expectError(yield* api.get("/blocks/not-an-id", { key }), 404, "not_found", "block_not_found")
      expectError(yield* api.post(`/blocks/${missingId}/confirm`, {}, { key }), 404, "not_found", "block_not_found")
      expectInvalid(yield* api.get("/blocks?status=open", { key }), "status")
      // Another property's block is a missing one.
      const mine = yield* createBlock(api, blockBody(imported, "A", range), { key })
      expectError(yield* api.get(`/blocks/${mine}`), 404, "not_found", "block_not_found")
    }))

  it.effect("scopes: blocks:read reads, blocks:write writes", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 2 })
      const id = yield* createBlock(api, blockBody(imported, "A", range), { key })
      const reader = yield* api.createKey({ propertyId: imported.property_id, scopes: ["blocks:read"] })
      expect((yield* api.get(`/blocks/${id}`, { key: reader })).status).toBe(200)
      expectError(yield* api.post("/blocks", blockBody(imported, "A", range), { key: reader }), 403, "permission", "insufficient_scope")
      const writer = yield* api.createKey({ propertyId: imported.property_id, scopes: ["blocks:write"] })
      expectError(yield* api.get("/blocks", { key: writer }), 403, "permission", "insufficient_scope")
      expect((yield* api.post(`/blocks/${id}/confirm`, {}, { key: writer })).status).toBe(200)
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
      expectInvalid(yield* api.patch(`/blocks/${id}`, { units: 1, nights: [] }, { key }), "units")
      expectInvalid(yield* api.patch(`/blocks/${id}`, { nights: [{ date: "2031-05-04", units: 1 }] }, { key }), "nights[0].date")
      expectInvalid(yield* api.patch(`/blocks/${id}`, { units: 4 }, { key }), "units")
      // Raising units needs free rooms: every room of the second night is already set aside.
      yield* createBlock(api, blockBody(imported, "A", { start_date: "2031-05-03", end_date: "2031-05-04", units: 2, status: "definite" }), { key })
      expectError(yield* api.patch(`/blocks/${id}`, { units: 2 }, { key }), 409, "conflict", "no_availability")
      expect((yield* getBlock(api, id, { key })).nights.map((night) => night.units)).toEqual([1, 3, 1])

      const res = yield* api.get(`/blocks/${id}`, { key })
      const tag = res.headers.get("etag") ?? ""
      expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/)
      expect((yield* api.get(`/blocks/${id}`, { key, headers: { "if-none-match": tag } })).status).toBe(304)
      const stale = yield* api.patch(`/blocks/${id}`, { name: "x" }, { key, headers: { "if-match": "\"stale\"" } })
      expectError(stale, 412, "conflict", "precondition_failed")
      yield* expectFailure(blockAction(api, id, "release", { key, headers: { "if-match": "\"stale\"" } }), PreconditionFailed)
      expect((yield* api.patch(`/blocks/${id}`, { name: "y" }, { key, headers: { "if-match": tag } })).status).toBe(200)
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
      const { data } = yield* client.events.list({ urlParams: { types: ["block.created", "block.updated", "block.confirmed", "block.released", "block.cancelled", "availability.changed"] } })
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
      const before = yield* client.rates.rates({ urlParams: query })
      expect(before.data.map((offer) => [offer.available, offer.reasons])).toEqual([[2, []]])
      yield* createBlock(api, blockBody(imported, "A", { ...range, units: 2, status: "definite" }), { key })
      const after = yield* client.rates.rates({ urlParams: query })
      expect(after.data.map((offer) => [offer.available, offer.reasons])).toEqual([[0, ["sold_out"]]])
    }))
})
