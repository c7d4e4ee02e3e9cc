import { expect, layer } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Statement from "effect/sql/Statement"
import * as TestClock from "effect/testing/TestClock"
import { postAri, readAri } from "../utils/ari.js"
import { createPlan } from "../utils/rateManagement.js"
import { TestSqlLive } from "../utils/TestDatabase.js"
import { makeTestApiLiveOn, TestApi, TestHttpLive } from "../utils/TestServer.js"

// `GET /ari` runs a fixed number of statements whatever the number of plans and nights: the real server and the
// real database, with a statement transformer (the driver's own hook, which changes nothing) counting the
// statements each request runs, keyed by a header of the request, so the server's background work is not counted.

const COUNTED = "x-test-statements"

class StatementCounts extends Context.Service<StatementCounts, Map<string, number>>()("test/StatementCounts") {
  static readonly layer = Layer.sync(this, () => new Map<string, number>())
}

/** Counts, per value of the request's `COUNTED` header, the statements run on its behalf. */
const CountingLive = Layer.effect(
  Statement.CurrentTransformer,
  Effect.gen(function*() {
    const counts = yield* StatementCounts
    const transformer: Statement.Transformer = (statement, _sql, fiber) =>
      Effect.sync(() => {
        const request = Context.getOption(fiber.context, HttpServerRequest.HttpServerRequest)
        const label = Option.isSome(request) ? request.value.headers[COUNTED] : undefined
        if (label !== undefined) counts.set(label, (counts.get(label) ?? 0) + 1)
        return statement
      })
    return transformer
  })
).pipe(Layer.provideMerge(StatementCounts.layer))

const T0 = Date.parse("2031-04-01T10:00:00Z")

layer(makeTestApiLiveOn(TestHttpLive, Layer.merge(TestSqlLive, CountingLive)))("GET /ari: statements", (it) => {
  it.effect("one plan over 7 nights and every plan over 366 nights run the same number of statements", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const counts = yield* StatementCounts
      yield* TestClock.setTime(T0)
      const parent = yield* createPlan(api, { base_price: "100.00" })
      const child = yield* createPlan(api, { derived_from_id: parent, derivation_type: "percent", derivation_value: "-10" })
      yield* createPlan(api, { derived_from_id: child, derivation_type: "fixed", derivation_value: "5.00" })
      yield* postAri(api, [
        { rate_plan_id: parent, start_date: "2031-05-01", end_date: "2032-05-01", days: ["fri", "sat"], price: "140.00" },
        { rate_plan_id: child, start_date: "2031-06-01", end_date: "2031-09-01", min_stay: 2, closed_to_arrival: true }
      ])
      // A fresh key for each read, so the gateway looks each one up alike (no key cached by an earlier request).
      const read = (label: string, query: Parameters<typeof readAri>[1]) =>
        Effect.flatMap(api.createKey(), (key) => readAri(api, query, { key, headers: { [COUNTED]: label } }))
      const one = yield* read("one", { start_date: "2031-05-01", end_date: "2031-05-08", rate_plan_id: parent })
      const all = yield* read("all", { start_date: "2031-05-01", end_date: "2032-05-01" })
      expect(one.map((entry) => entry.nights.length)).toEqual([7])
      expect(all.length).toBeGreaterThanOrEqual(4)
      expect(all.every((entry) => entry.nights.length === 366)).toBe(true)
      const statements = counts.get("one") ?? 0
      expect(statements).toBeGreaterThan(0)
      expect(counts.get("all")).toBe(statements)
    }))
})
