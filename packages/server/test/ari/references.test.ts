import { expect, layer } from "@effect/vitest"
import { InvalidParameters, RatePlanNotFound, RoomTypeNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { ariNights, postAri, postAriRaw, readAri } from "../utils/ari.js"
import { importRoomTypes } from "../utils/booking.js"
import { expectFailure } from "../utils/client.js"
import { putControls } from "../utils/inventory.js"
import { createPlan, expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// `POST /ari` beyond field validation: references (404) and their order, the rules that need the plan or the
// room type, derived plans following their parent's override, atomicity, inventory items as the PUT, events,
// idempotency, scopes and tenancy. On the TestClock.

const T0 = Date.parse("2031-04-01T10:00:00Z")
const week = { start_date: "2031-05-04", end_date: "2031-05-11" }
const friday = { start_date: "2031-05-09", end_date: "2031-05-10" }

layer(TestApiLive)("POST /ari: references, rules, events", (it) => {
  it.effect("404s after validation name the first missing item; deleted and foreign plans are missing, inactive ones are not", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const plan = yield* createPlan(api)
      const other = yield* api.importProperty()
      const foreign = other.rate_plans["BAR-DBL"]
      const ok = { rate_plan_id: plan, ...week, price: "90.00" }
      const missing = <E extends RatePlanNotFound | RoomTypeNotFound>(
        items: ReadonlyArray<Record<string, unknown>>,
        error: new(...args: never) => E,
        index: number
      ) => Effect.map(expectFailure(postAri(api, items), error), (e) => expect(e.message).toContain(`items[${index}]`))
      yield* missing([ok, { ...ok, rate_plan_id: missingId }], RatePlanNotFound, 1)
      yield* missing([ok, { ...ok, rate_plan_id: foreign }], RatePlanNotFound, 1)
      const wire = expectError(yield* postAriRaw(api, { items: [ok, ok, { ...ok, rate_plan_id: foreign }] }), 404, "not_found", "rate_plan_not_found")
      expect(wire.message).toContain("items[2]")
      yield* missing([ok, { room_type_id: missingId, ...week, sell_limit: 1 }, { ...ok, rate_plan_id: missingId }], RoomTypeNotFound, 1)
      yield* missing([{ room_type_id: other.room_types["DBL"], ...week, sell_limit: 1 }], RoomTypeNotFound, 0)
      // Validation of every item comes before any 404.
      expectInvalid(yield* postAriRaw(api, { items: [{ ...ok, rate_plan_id: missingId }, { ...ok, price: "x" }] }), "items[1].price")
      // A 404 comes before a rule of an earlier item (1.234 has more decimals than EUR).
      yield* missing([{ ...ok, price: "1.234" }, { ...ok, rate_plan_id: missingId }], RatePlanNotFound, 1)
      const client = api.client
      const inactive = yield* createPlan(api)
      yield* client.ratePlanWrites.update({ params: { id: inactive }, headers: {}, payload: { is_active: false } })
      expect((yield* postAri(api, [{ ...ok, rate_plan_id: inactive }])).nights_updated).toBe(7)
      const deleted = yield* createPlan(api)
      yield* client.ratePlanWrites.delete({ params: { id: deleted }, headers: {} })
      yield* missing([{ ...ok, rate_plan_id: deleted }], RatePlanNotFound, 0)
    }))

  it.effect("rules, first item first: a price on a derived plan (even null), decimals beyond the currency, capacity above the rooms; nothing applied", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const parent = yield* createPlan(api, { base_price: "100.00" })
      const child = yield* createPlan(api, { derived_from_id: parent, derivation_type: "percent", derivation_value: "-10" })
      const type = api.property.room_types["DBL"]
      const ok = { rate_plan_id: parent, ...week, price: "90.00" }
      const refused = (items: ReadonlyArray<Record<string, unknown>>, param: string) =>
        expectFailure(postAri(api, items), InvalidParameters, param)
      yield* refused([ok, { rate_plan_id: child, ...week, price: "80.00" }], "items[1].price")
      yield* refused([ok, { rate_plan_id: child, ...week, price: null }], "items[1].price")
      yield* refused([{ ...ok, price: "90.001" }, { rate_plan_id: child, ...week, price: null }], "items[0].price")
      yield* refused([ok, { room_type_id: type, ...week, sell_limit: 4 }], "items[1].sell_limit")
      yield* refused([{ room_type_id: type, ...week, overbooking: 4 }, { ...ok, price: "1.234" }], "items[0].overbooking")
      // None of the refused calls set anything, nor appended an event.
      expect((yield* ariNights(api, parent, "2031-05-09", "2031-05-10"))[0].price).toBe("100.00")
      const events = yield* api.client.events.list({ query: { types: ["ari.changed", "inventory.changed"] } })
      expect(events.data.filter((e) => JSON.stringify(e.data).includes(parent))).toEqual([])
      // Restrictions on a derived plan are its own.
      expect((yield* postAri(api, [{ rate_plan_id: child, ...friday, stop_sell: true }])).nights_updated).toBe(1)
    }))

  it.effect("a derived plan follows its parent's override: percent, fixed, per person, and a chain", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const parent = yield* createPlan(api, { base_price: "100.00" })
      const percent = yield* createPlan(api, { derived_from_id: parent, derivation_type: "percent", derivation_value: "-10" })
      const fixed = yield* createPlan(api, { derived_from_id: parent, derivation_type: "fixed", derivation_value: "5.00" })
      const perPerson = yield* createPlan(api, { derived_from_id: parent, derivation_type: "perPerson", derivation_value: "3.00" })
      const chain = yield* createPlan(api, { derived_from_id: percent, derivation_type: "fixed", derivation_value: "-20.00" })
      const prices = Effect.forEach([parent, percent, fixed, perPerson, chain], (plan) =>
        Effect.map(ariNights(api, plan, friday.start_date, friday.end_date), (nights) => nights[0].price))
      expect(yield* prices).toEqual(["100.00", "90.00", "105.00", "106.00", "70.00"])
      yield* postAri(api, [{ rate_plan_id: parent, ...friday, price: "200.00" }])
      expect(yield* prices).toEqual(["200.00", "180.00", "205.00", "206.00", "160.00"])
      // Making a plan derived removes its price overrides (its restrictions stay).
      const was = yield* createPlan(api, { base_price: "50.00" })
      yield* postAri(api, [{ rate_plan_id: was, ...friday, price: "70.00", stop_sell: true }])
      yield* api.client.ratePlanWrites.update({ params: { id: was }, headers: {}, payload: { derived_from_id: parent, derivation_type: "fixed", derivation_value: "1.00" } })
      // Derived, it follows its parent's override (200.00 + 1.00) and keeps its own stop-sell.
      const [derived] = yield* ariNights(api, was, friday.start_date, friday.end_date)
      expect([derived.price, derived.stop_sell]).toEqual(["201.00", true])
      yield* api.client.ratePlanWrites.update({ params: { id: was }, headers: {}, payload: { derived_from_id: null } })
      const [night] = yield* ariNights(api, was, friday.start_date, friday.end_date)
      expect([night.price, night.stop_sell]).toEqual(["50.00", true])
    }))

  it.effect("events: one ari.changed per named plan and each plan derived from it, spanning their items; inventory events per room type", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { imported, key } = yield* importRoomTypes(api, { A: 3 })
      const parent = imported.rate_plans["BAR-A"]
      const client = yield* api.clientFor(key)
      const child = (yield* client.ratePlanWrites.create({
        headers: {},
        payload: { room_type_id: imported.room_types.A, name: "Child", base_price: "1.00", derived_from_id: parent, derivation_type: "fixed", derivation_value: "1.00" }
      })).rate_plan_id
      const grandchild = (yield* client.ratePlanWrites.create({
        headers: {},
        payload: { room_type_id: imported.room_types.A, name: "Grandchild", base_price: "1.00", derived_from_id: child, derivation_type: "fixed", derivation_value: "1.00" }
      })).rate_plan_id
      yield* postAri(api, [
        { rate_plan_id: parent, start_date: "2031-05-04", end_date: "2031-05-06", price: "99.00" },
        { rate_plan_id: child, start_date: "2031-06-01", end_date: "2031-06-03", stop_sell: true },
        { room_type_id: imported.room_types.A, start_date: "2031-05-10", end_date: "2031-05-12", sell_limit: 1 },
        { room_type_id: imported.room_types.A, start_date: "2031-05-01", end_date: "2031-05-02", overbooking: null }
      ], { key })
      const { data } = yield* client.events.list({ query: { types: ["ari.changed", "inventory.changed", "availability.changed"] } })
      const byType = (type: string) => data.filter((e) => e.type === type).map((e) => e.data)
      const sorted = [
        { rate_plan_id: parent, start_date: "2031-05-04", end_date: "2031-05-06" },
        { rate_plan_id: child, start_date: "2031-05-04", end_date: "2031-06-03" },
        { rate_plan_id: grandchild, start_date: "2031-05-04", end_date: "2031-06-03" }
      ].sort((a, b) => (a.rate_plan_id < b.rate_plan_id ? -1 : 1))
      expect(byType("ari.changed")).toEqual(sorted)
      const span = { room_type_id: imported.room_types.A, start_date: "2031-05-01", end_date: "2031-05-12" }
      expect(byType("inventory.changed")).toEqual([span])
      expect(byType("availability.changed")).toEqual([span])
      // A call that sets the values already there appends them again.
      yield* postAri(api, [{ rate_plan_id: parent, start_date: "2031-05-04", end_date: "2031-05-06", price: "99.00" }], { key })
      const again = yield* client.events.list({ query: { types: ["ari.changed"] } })
      expect(again.data.length).toBe(6)
    }))

  it.effect("inventory items do on their nights what the PUT does with the same fields", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { imported: a, key: keyA } = yield* importRoomTypes(api, { A: 3 })
      const { imported: b, key: keyB } = yield* importRoomTypes(api, { A: 3 })
      const steps = [
        { ...week, days: ["sat", "sun"], sell_limit: 1 },
        { ...week, overbooking: 2 },
        { start_date: "2031-05-04", end_date: "2031-05-05", sell_limit: null },
        { start_date: "2031-05-05", end_date: "2031-05-06", overbooking: 0 }
      ] as const
      for (const step of steps) {
        const viaPut = yield* putControls(api, a.room_types.A, step, { key: keyA })
        const viaAri = yield* postAri(api, [{ room_type_id: b.room_types.A, ...step }], { key: keyB })
        expect(viaAri.nights_updated).toBe(viaPut)
      }
      // overbooking null is 0, as the PUT's 0.
      yield* postAri(api, [{ room_type_id: b.room_types.A, start_date: "2031-05-06", end_date: "2031-05-07", overbooking: null }], { key: keyB })
      yield* putControls(api, a.room_types.A, { start_date: "2031-05-06", end_date: "2031-05-07", overbooking: 0 }, { key: keyA })
      const read = (id: string, key: string) =>
        Effect.flatMap(api.clientFor(key), (client) =>
          client.inventory.getControls({ params: { id }, query: { start_date: "2031-05-03", end_date: "2031-05-12" } }))
      expect((yield* read(b.room_types.A, keyB)).nights).toEqual((yield* read(a.room_types.A, keyA)).nights)
      const availability = (id: string, key: string) =>
        Effect.flatMap(api.clientFor(key), (client) =>
          client.availability.availability({ query: { start_date: "2031-05-03", end_date: "2031-05-11", room_type_id: id } }))
      expect((yield* availability(b.room_types.A, keyB)).data[0].nights).toEqual((yield* availability(a.room_types.A, keyA)).data[0].nights)
    }))

  it.effect("scopes: rates:write first, inventory:write for an inventory item, both before field validation", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const plan = yield* createPlan(api)
      const type = api.property.room_types["DBL"]
      const readOnly = yield* api.createKey({ scopes: ["rates:read"] })
      const ratesOnly = yield* api.createKey({ scopes: ["rates:write", "rates:read"] })
      const forbidden = (res: { status: number }) => expect(res.status).toBe(403)
      const scopeError = (res: Parameters<typeof expectError>[0]) => expectError(res, 403, "permission", "insufficient_scope")
      forbidden(yield* postAriRaw(api, { items: "garbage" }, { key: readOnly }))
      scopeError(yield* postAriRaw(api, { items: [{ rate_plan_id: plan, ...week, price: "x" }, { room_type_id: type }] }, { key: ratesOnly }))
      // A rate item beside it is not applied either.
      const before = (yield* ariNights(api, plan, "2031-05-09", "2031-05-10"))[0].price
      scopeError(yield* postAriRaw(api, { items: [{ rate_plan_id: plan, ...week, price: "1.00" }, { room_type_id: type, ...week, sell_limit: 1 }] }, { key: ratesOnly }))
      expect((yield* ariNights(api, plan, "2031-05-09", "2031-05-10"))[0].price).toBe(before)
      // Rate items alone need only rates:write; GET /ari needs rates:read.
      expect((yield* postAri(api, [{ rate_plan_id: plan, ...friday, price: "1.00" }], { key: ratesOnly })).items).toBe(1)
      const inventoryOnly = yield* api.createKey({ scopes: ["inventory:write"] })
      scopeError(yield* api.get(`/ari?start_date=2031-05-09&end_date=2031-05-10`, { key: inventoryOnly }))
      expect((yield* readAri(api, { start_date: "2031-05-09", end_date: "2031-05-10", rate_plan_id: plan }, { key: readOnly })).length).toBe(1)
    }))

  it.effect("Idempotency-Key: a replay answers the stored response and applies nothing again", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const plan = yield* createPlan(api)
      const headers = { "idempotency-key": `ari-${plan}` }
      const body = { items: [{ rate_plan_id: plan, ...friday, price: "77.00" }] }
      const first = yield* api.post("/ari", body, { headers })
      // Changed in between: a replay must not set 77.00 again.
      yield* postAri(api, [{ rate_plan_id: plan, ...friday, price: "88.00" }])
      const replay = yield* api.post("/ari", body, { headers })
      expect([first.status, replay.status, replay.headers.get("idempotent-replayed"), replay.text]).toEqual([200, 200, "true", first.text])
      expect((yield* ariNights(api, plan, friday.start_date, friday.end_date))[0].price).toBe("88.00")
      const events = yield* api.client.events.list({ query: { types: ["ari.changed"] } })
      expect(events.data.filter((e) => JSON.stringify(e.data).includes(plan)).length).toBe(2)
    }))
})
