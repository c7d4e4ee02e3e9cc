import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { ariNights, offer, postAri, readAri } from "../utils/ari.js"
import { createInterval, createPlan, expectError } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// `GET /ari` as a channel reads it: its scope, which plans it lists and in what order, the filters, a night's
// restrictions over a plan's chain (overrides, intervals, min_los/max_los) and its price on a closed night.
// On the TestClock.

const T0 = Date.parse("2031-04-01T10:00:00Z")
const range = { start_date: "2031-05-04", end_date: "2031-05-07" }

type Restrictions = Partial<Record<"min_stay" | "max_stay", number> & Record<"closed_to_arrival" | "closed_to_departure" | "stop_sell", boolean>>

layer(TestApiLive)("GET /ari", (it) => {
  it.effect("needs rates:read: 403 insufficient_scope naming it, no param", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const writer = yield* api.createKey({ scopes: ["rates:write", "inventory:read", "catalog:read"] })
      const error = expectError(yield* api.get(`/ari?start_date=${range.start_date}&end_date=${range.end_date}`, { key: writer }), 403, "permission", "insufficient_scope")
      expect(error.message).toContain("rates:read")
    }))

  it.effect("lists every plan not deleted, inactive or hidden from the key's sales context, by rate_plan_id, nights in date order", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const dbl = api.property.room_types["DBL"]
      const inactive = yield* createPlan(api)
      yield* api.client.ratePlanWrites.update({ params: { id: inactive }, headers: {}, payload: { is_active: false } })
      const noChannels = yield* createPlan(api, { active_for_channels: false })
      const noEngine = yield* createPlan(api, { active_for_booking_engine: false })
      const deleted = yield* createPlan(api)
      yield* api.client.ratePlanWrites.delete({ params: { id: deleted }, headers: {} })
      for (const context of ["channel", "booking_engine", "back_office"] as const) {
        const key = yield* api.createKey({ context, scopes: ["rates:read", "catalog:read"] })
        const entries = yield* readAri(api, { ...range, room_type_id: dbl }, { key })
        const ids = entries.map((e) => e.rate_plan_id)
        expect(ids, context).toEqual(expect.arrayContaining([inactive, noChannels, noEngine]))
        expect(ids, context).not.toContain(deleted)
        expect(ids, context).toEqual([...ids].sort())
        for (const entry of entries) expect(entry.nights.map((n) => n.date)).toEqual(["2031-05-04", "2031-05-05", "2031-05-06"])
      }
      // The sales themselves still hide them: a channel's /rates does not offer the plan closed to channels.
      const channel = yield* api.clientFor(yield* api.createKey({ context: "channel", scopes: ["rates:read", "catalog:read"] }))
      const offered = yield* channel.rates.rates({ query: { check_in: "2031-05-04", check_out: "2031-05-05", adults: 2, include_unavailable: true } })
      expect(offered.data.map((o) => o.rate_plan_id)).not.toContain(noChannels)
    }))

  it.effect("room_type_id keeps that type's plans; with a plan of another type, the list is empty", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const [dbl, ste] = [api.property.room_types["DBL"], api.property.room_types["STE"]]
      const all = yield* readAri(api, range)
      const suites = yield* readAri(api, { ...range, room_type_id: ste })
      expect(suites.map((e) => e.rate_plan_id)).toContain(api.property.rate_plans["BAR-STE"])
      expect(suites.every((e) => e.room_type_id === ste)).toBe(true)
      expect(suites).toEqual(all.filter((e) => e.room_type_id === ste))
      const doubles = yield* readAri(api, { ...range, room_type_id: dbl })
      expect([...doubles, ...suites].map((e) => e.rate_plan_id).sort()).toEqual(all.map((e) => e.rate_plan_id))
      expect(yield* readAri(api, { ...range, room_type_id: ste, rate_plan_id: api.property.rate_plans["BAR-DBL"] })).toEqual([])
    }))

  it.effect("a closed night still carries its price, as include_unavailable quotes it", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const plan = yield* createPlan(api, { base_price: "100.00" })
      // 2031-05-09 is a Friday: the interval's stop-sell, priced by it; the Saturday stop-sell by an override.
      yield* createInterval(api, plan, { name: "Closed", start_date: "2031-05-09", end_date: "2031-05-10", price_fri: "120.00", stop_sell: true })
      yield* postAri(api, [{ rate_plan_id: plan, start_date: "2031-05-10", end_date: "2031-05-11", price: "130.00", stop_sell: true }])
      const nights = yield* ariNights(api, plan, "2031-05-09", "2031-05-11")
      expect(nights.map((n) => [n.price, n.stop_sell])).toEqual([["120.00", true], ["130.00", true]])
      const quoted = yield* offer(api, plan, { check_in: "2031-05-09", check_out: "2031-05-11" })
      expect([quoted.bookable, quoted.nights.map((n) => n.amount)]).toEqual([false, ["120.00", "130.00"]])
    }))

  it.effect("restrictions over the chain: min_stay the largest, max_stay the smallest of overrides, intervals and min_los/max_los; a boolean any", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const parent = yield* createPlan(api, { min_los: 2, max_los: 20 })
      const child = yield* createPlan(api, { derived_from_id: parent, derivation_type: "percent", derivation_value: "-10", max_los: 9 })
      const grandchild = yield* createPlan(api, { derived_from_id: child, derivation_type: "fixed", derivation_value: "5.00" })
      // The child's season: its rules on 2031-05-10 .. 2031-05-19.
      yield* createInterval(api, child, { name: "Season", start_date: "2031-05-10", end_date: "2031-05-20", min_stay: 3, max_stay: 8, closed_to_departure: true })
      const none = { closed_to_arrival: false, closed_to_departure: false, stop_sell: false }
      // Each row: one night, the overrides set on it per plan, and the grandchild's night as GET /ari reads it.
      const table: ReadonlyArray<{
        readonly date: string
        readonly set: { readonly parent?: Restrictions; readonly child?: Restrictions; readonly grandchild?: Restrictions }
        readonly reads: Restrictions
      }> = [
        { date: "2031-05-05", set: {}, reads: { min_stay: 2, max_stay: 9, ...none } },
        { date: "2031-05-06", set: { parent: { min_stay: 4 } }, reads: { min_stay: 4, max_stay: 9, ...none } },
        // An override on the plan lifts no ancestor's min_los nor its max_los.
        { date: "2031-05-07", set: { grandchild: { min_stay: 1, max_stay: 30 } }, reads: { min_stay: 2, max_stay: 9, ...none } },
        { date: "2031-05-08", set: { parent: { max_stay: 5, stop_sell: true }, child: { max_stay: 3 } }, reads: { min_stay: 2, max_stay: 3, ...none, stop_sell: true } },
        { date: "2031-05-11", set: {}, reads: { min_stay: 3, max_stay: 8, ...none, closed_to_departure: true } },
        // The child's overrides replace its interval's values on their night, both ways.
        { date: "2031-05-12", set: { child: { min_stay: 1, max_stay: 30, closed_to_departure: false } }, reads: { min_stay: 2, max_stay: 9, ...none } },
        { date: "2031-05-13", set: { parent: { min_stay: 6 }, grandchild: { closed_to_arrival: true } }, reads: { min_stay: 6, max_stay: 8, ...none, closed_to_arrival: true, closed_to_departure: true } },
        { date: "2031-05-14", set: { parent: { closed_to_departure: true }, child: { closed_to_departure: false } }, reads: { min_stay: 3, max_stay: 8, ...none, closed_to_departure: true } }
      ]
      const plans = { parent, child, grandchild }
      yield* postAri(api, table.flatMap(({ date, set }) =>
        Object.entries(set).map(([which, fields]) => ({
          rate_plan_id: plans[which as keyof typeof plans],
          start_date: date,
          end_date: `2031-05-${String(Number(date.slice(8)) + 1).padStart(2, "0")}`,
          ...fields
        }))))
      const nights = yield* ariNights(api, grandchild, "2031-05-05", "2031-05-15")
      for (const { date, reads } of table) {
        const night = nights.find((n) => n.date === date)
        expect(night && {
          min_stay: night.min_stay,
          max_stay: night.max_stay,
          closed_to_arrival: night.closed_to_arrival,
          closed_to_departure: night.closed_to_departure,
          stop_sell: night.stop_sell
        }, date).toEqual(reads)
      }
      // The parent alone: its own override and min_los/max_los, nothing of the plans below it.
      expect((yield* ariNights(api, parent, "2031-05-07", "2031-05-09")).map((n) => [n.min_stay, n.max_stay, n.stop_sell]))
        .toEqual([[2, 20, false], [2, 5, true]])
    }))
})
