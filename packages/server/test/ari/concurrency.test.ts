import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as TestClock from "effect/testing/TestClock"
import { ariNights, postAri } from "../utils/ari.js"
import { hold, importedHoldBody, importRoomTypes } from "../utils/booking.js"
import { all } from "../utils/concurrency.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// `POST /ari` under REAL concurrent HTTP requests against Postgres: calls on one plan apply whole, one after the
// other; a hold racing a call is priced entirely before it or entirely after it.

const T0 = Date.parse("2031-04-01T10:00:00Z")

layer(TestApiLive)("POST /ari under concurrency", (it) => {
  it.effect("8 calls on one plan leave one call's items whole, never a mix", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { imported, key } = yield* importRoomTypes(api, { A: 3 })
      const plan = imported.rate_plans["BAR-A"]
      // Each call writes its own figures in two items over the two halves of the range, then a third over all.
      const call = (i: number) =>
        postAri(api, [
          { rate_plan_id: plan, start_date: "2031-05-01", end_date: "2031-05-11", price: `${100 + i}.00` },
          { rate_plan_id: plan, start_date: "2031-05-11", end_date: "2031-05-21", price: `${100 + i}.00` },
          { rate_plan_id: plan, start_date: "2031-05-01", end_date: "2031-05-21", min_stay: i + 1 }
        ], { key })
      const results = yield* all(Array.from({ length: 8 }, (_, i) => call(i)))
      expect(results.every(Result.isSuccess)).toBe(true)
      const nights = yield* ariNights(api, plan, "2031-05-01", "2031-05-21", { key })
      const pairs = new Set(nights.map((n) => `${n.price}/${n.min_stay}`))
      expect(pairs.size).toBe(1)
      const [price, minStay] = [...pairs][0].split("/")
      expect(Number(price) - 100 + 1).toBe(Number(minStay))
    }))

  it.effect("holds racing a call are priced entirely before or entirely after it", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 8 })
      const plan = imported.rate_plans["BAR-A"]
      const stay = { check_in: "2031-05-01", check_out: "2031-05-03" }
      const client = yield* api.clientFor(key)
      const quote = Effect.map(client.rates.rates({ query: { ...stay, adults: 1, rate_plan_id: plan, include_unavailable: true } }), (r) => r.data[0].total)
      const before = yield* quote
      // One item per night: a stay priced with part of the call would be neither total.
      const ari = postAri(api, [
        { rate_plan_id: plan, start_date: "2031-05-01", end_date: "2031-05-02", price: "200.00" },
        { rate_plan_id: plan, start_date: "2031-05-02", end_date: "2031-05-03", price: "200.00" }
      ], { key })
      const holds = Array.from({ length: 8 }, () => Effect.map(hold(api, importedHoldBody(imported, "A", guest, stay), { key }), (h) => h.total))
      const results = yield* all<string | { readonly items: number }, unknown, never>([...holds.slice(0, 4), Effect.map(ari, (a) => ({ items: a.items })), ...holds.slice(4)])
      const after = yield* quote
      expect(before).not.toBe(after)
      const totals = results.flatMap((r) => (Result.isSuccess(r) && typeof r.success === "string" ? [r.success] : []))
      expect(totals).toHaveLength(8)
      for (const total of totals) expect([before, after]).toContain(total)
    }))
})
