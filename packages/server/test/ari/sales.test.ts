import { expect, layer } from "@effect/vitest"
import { RatePlanNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { ariNights, offer, postAri, readAri } from "../utils/ari.js"
import { confirm, folioLines, hold, holdBody, newGuest } from "../utils/booking.js"
import { change } from "../utils/changes.js"
import { expectFailure } from "../utils/client.js"
import { createInterval, createPlan, expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// One rule for every sale: `/rates`, holds and changes price and check stays with the per-night overrides, above
// the intervals; what is sold keeps its price; `GET /ari` is a one-night `/rates` quote and `/availability`, with
// a strong ETag. On the TestClock.

const T0 = Date.parse("2031-04-01T10:00:00Z")
// 2031-05-09 is a Friday.
const friday = { start_date: "2031-05-09", end_date: "2031-05-10" }

layer(TestApiLive)("ARI in every sale", (it) => {
  it.effect("an override comes before the interval both ways: its price, false opens a closed night, min_stay 1 lifts", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const plan = yield* createPlan(api, { base_price: "100.00" })
      yield* createInterval(api, plan, { name: "Closed", start_date: "2031-05-01", end_date: "2031-06-01", price_fri: "300.00", min_stay: 3, closed_to_arrival: true })
      const stay = { check_in: "2031-05-09", check_out: "2031-05-10" }
      const before = yield* offer(api, plan, stay)
      expect([before.total, before.reasons]).toEqual(["322.00", ["min_stay", "closed_to_arrival"]])
      yield* postAri(api, [{ rate_plan_id: plan, ...friday, price: "150.00", min_stay: 1, closed_to_arrival: false }])
      const after = yield* offer(api, plan, { ...stay })
      expect([after.nights[0].amount, after.reasons, after.bookable]).toEqual(["150.00", [], true])
      const traced = yield* api.client.rates.rates({ query: { ...stay, adults: 2, rate_plan_id: plan, include: "trace" } })
      expect(traced.data[0].nights[0].trace?.[0]).toMatchObject({ step: "override", amount: "150.00" })
    }))

  it.effect("each restriction is a /rates reason and a hold's refusal (404 rate_plan_not_found)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const guest = yield* newGuest(api)
      const type = api.property.room_types["DBL"]
      const cases = [
        { field: { min_stay: 3 }, on: friday, reason: "min_stay" },
        { field: { max_stay: 1 }, on: friday, reason: "max_stay" },
        { field: { closed_to_arrival: true }, on: friday, reason: "closed_to_arrival" },
        // Departure is the check-out night: 2031-05-11.
        { field: { closed_to_departure: true }, on: { start_date: "2031-05-11", end_date: "2031-05-12" }, reason: "closed_to_departure" },
        { field: { stop_sell: true }, on: { start_date: "2031-05-10", end_date: "2031-05-11" }, reason: "stop_sell" }
      ] as const
      for (const { field, on, reason } of cases) {
        const plan = yield* createPlan(api, { base_price: "100.00", room_type_id: type })
        yield* postAri(api, [{ rate_plan_id: plan, ...on, ...field }])
        const stay = { check_in: "2031-05-09", check_out: "2031-05-11" }
        expect((yield* offer(api, plan, stay)).reasons, reason).toEqual([reason])
        yield* expectFailure(hold(api, holdBody(api, guest, { ...stay, rate_plan_id: plan })), RatePlanNotFound)
        // A derived plan passes its parent's rules too.
        const child = yield* createPlan(api, { derived_from_id: plan, derivation_type: "fixed", derivation_value: "1.00" })
        expect((yield* offer(api, child, stay)).reasons, reason).toEqual([reason])
      }
    }))

  it.effect("a hold equals its quote line for line over override nights; a later override alters no hold, nor its confirm", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const guest = yield* newGuest(api)
      const plan = yield* createPlan(api, { base_price: "100.00" })
      yield* postAri(api, [{ rate_plan_id: plan, start_date: "2031-05-09", end_date: "2031-05-12", days: ["fri", "sun"], price: "155.55" }])
      const stay = { check_in: "2031-05-08", check_out: "2031-05-12" }
      const quoted = yield* offer(api, plan, stay, 1)
      expect(quoted.nights.map((n) => n.amount)).toEqual(["100.00", "155.55", "100.00", "155.55"])
      const held = yield* hold(api, holdBody(api, guest, { ...stay, rate_plan_id: plan, adults: 1 }))
      expect(held.total).toBe(quoted.total)
      const lines = yield* folioLines(api.sql, held.folio_id)
      expect(lines.map((l) => ({ kind: l.kind, description: l.description, amount: Number(l.amount).toFixed(2) }))).toEqual(quoted.lines)
      // An override after the hold, closing the stay too, changes neither the hold nor its confirm.
      yield* postAri(api, [{ rate_plan_id: plan, start_date: "2031-05-08", end_date: "2031-05-12", price: "999.00", stop_sell: true }])
      const confirmed = yield* confirm(api, held.reservation_id)
      expect(confirmed.status).toBe("confirmed")
      expect((yield* folioLines(api.sql, held.folio_id)).filter((l) => l.kind !== "payment").map((l) => l.amount))
        .toEqual(lines.map((l) => l.amount))
    }))

  it.effect("a change keeps the nights it holds and prices its new nights with the overrides", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const guest = yield* newGuest(api)
      const plan = yield* createPlan(api, { base_price: "100.00" })
      const held = yield* hold(api, holdBody(api, guest, { check_in: "2031-05-08", check_out: "2031-05-10", rate_plan_id: plan }))
      yield* postAri(api, [{ rate_plan_id: plan, start_date: "2031-05-08", end_date: "2031-05-12", price: "140.00" }])
      const quote = yield* api.client.changeQuote.get({ params: { id: held.reservation_id }, query: { check_out: "2031-05-12" } })
      expect(quote.nights.map((n) => [n.amount, n.kept])).toEqual([["100.00", true], ["100.00", true], ["140.00", false], ["140.00", false]])
      const changed = yield* change(api, held.reservation_id, { check_out: "2031-05-12" })
      expect(changed.total).toBe(quote.total)
    }))

  it.effect("GET /ari equals a one-night /rates quote for the base occupancy, on random nights and plans", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const parent = yield* createPlan(api, { base_price: "100.00", min_los: 2 })
      const child = yield* createPlan(api, { derived_from_id: parent, derivation_type: "percent", derivation_value: "-15", max_los: 9 })
      yield* createInterval(api, parent, { name: "Season", start_date: "2031-05-05", end_date: "2031-05-25", price_sat: "180.00", max_stay: 7, stop_sell: false })
      yield* postAri(api, [
        { rate_plan_id: parent, start_date: "2031-05-01", end_date: "2031-05-31", days: ["fri", "sat"], price: "133.33" },
        { rate_plan_id: parent, start_date: "2031-05-15", end_date: "2031-05-18", closed_to_arrival: true, min_stay: 4 },
        { rate_plan_id: child, start_date: "2031-05-10", end_date: "2031-05-20", stop_sell: true, max_stay: 5 }
      ])
      const guest = yield* newGuest(api)
      yield* hold(api, holdBody(api, guest, { check_in: "2031-05-12", check_out: "2031-05-14", rate_plan_id: parent }))
      const entries = yield* readAri(api, { start_date: "2031-05-01", end_date: "2031-05-31", room_type_id: api.property.room_types["DBL"] })
      const plans = [...api.property.rate_plans["BAR-DBL"] === undefined ? [] : [api.property.rate_plans["BAR-DBL"]], parent, child]
      expect(entries.map((e) => e.rate_plan_id)).toEqual([...entries.map((e) => e.rate_plan_id)].sort())
      // A fixed walk of "random" nights (a linear congruence), so a failure reproduces.
      let seed = 7
      for (let i = 0; i < 12; i++) {
        seed = (seed * 31 + 11) % 30
        const plan = plans[i % plans.length]
        const date = `2031-05-${String(seed + 1).padStart(2, "0")}`
        const next = `2031-05-${String(seed + 2).padStart(2, "0")}`
        const night = entries.find((e) => e.rate_plan_id === plan)?.nights.find((n) => n.date === date)
        const quoted = yield* offer(api, plan, { check_in: date, check_out: next })
        expect(night?.price, `${plan} ${date}`).toBe(quoted.nights[0].amount)
        const availability = yield* api.client.availability.availability({ query: { start_date: date, end_date: date, room_type_id: api.property.room_types["DBL"] } })
        expect(night?.available).toBe(availability.data[0].nights[0].available)
      }
      const childNights = entries.find((e) => e.rate_plan_id === child)?.nights ?? []
      // 2031-05-16: the parent's min_stay 4 over min_los 2, the child's max_stay 5 under its max_los 9 and the interval's 7.
      expect(childNights.find((n) => n.date === "2031-05-16")).toMatchObject({
        min_stay: 4, max_stay: 5, closed_to_arrival: true, stop_sell: true, closed_to_departure: false
      })
      expect(childNights.find((n) => n.date === "2031-05-26")).toMatchObject({ min_stay: 2, max_stay: 9, stop_sell: false })
    }))

  it.effect("GET /ari: a strong ETag that a hold changes, 304 on If-None-Match, no-cache; 404s after validation", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const plan = yield* createPlan(api)
      const path = `/ari?start_date=2031-05-09&end_date=2031-05-11&rate_plan_id=${plan}`
      const first = yield* api.get(path)
      expect(first.status).toBe(200)
      expect(first.headers.get("cache-control")).toBe("no-cache")
      const tag = first.headers.get("etag") ?? ""
      expect(tag).toMatch(/^"/)
      expect((yield* api.get(path, { headers: { "if-none-match": tag } })).status).toBe(304)
      const guest = yield* newGuest(api)
      yield* hold(api, holdBody(api, guest, { check_in: "2031-05-09", check_out: "2031-05-10", rate_plan_id: plan }))
      const after = yield* api.get(path, { headers: { "if-none-match": tag } })
      expect(after.status).toBe(200)
      expect(after.headers.get("etag")).not.toBe(tag)
      expectInvalid(yield* api.get("/ari?start_date=2031-05-09&end_date=2031-05-09"), "end_date")
      expectInvalid(yield* api.get("/ari?start_date=2031-05-09&end_date=2032-05-11"), "end_date")
      expectInvalid(yield* api.get(`/ari?start_date=2031-05-09&end_date=2031-05-10&rate_plan_id=x`), "rate_plan_id")
      expectError(yield* api.get(`/ari?start_date=2031-05-09&end_date=2031-05-10&rate_plan_id=${missingId}`), 404, "not_found", "rate_plan_not_found")
      expectError(yield* api.get(`/ari?start_date=2031-05-09&end_date=2031-05-10&room_type_id=${missingId}`), 404, "not_found", "room_type_not_found")
      // Another property's plan is missing; its own calendar lists only its plans.
      const other = yield* api.importProperty()
      expectError(yield* api.get(`/ari?start_date=2031-05-09&end_date=2031-05-10&rate_plan_id=${other.rate_plans["BAR-DBL"]}`), 404, "not_found", "rate_plan_not_found")
      const mine = yield* readAri(api, { start_date: "2031-05-09", end_date: "2031-05-10" })
      expect(mine.some((e) => Object.values(other.rate_plans).includes(e.rate_plan_id))).toBe(false)
      expect(yield* ariNights(api, plan, "2031-05-09", "2031-05-10")).toHaveLength(1)
    }))
})
