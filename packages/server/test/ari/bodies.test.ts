import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { ariNights, postAri, postAriRaw } from "../utils/ari.js"
import { importRoomTypes } from "../utils/booking.js"
import { availabilityOf } from "../utils/blocks.js"
import type { ApiResponse, ErrorBody } from "../utils/http.js"
import { createPlan, expectError, expectInvalid } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// `POST /ari` at the edges of its body: not JSON or not an object (as every POST), a `null` entry, the nulls of an
// inventory item; and a refused call sent again with its Idempotency-Key, which runs again and appends nothing.
// On the TestClock.

const T0 = Date.parse("2031-04-01T10:00:00Z")
const friday = { start_date: "2031-05-09", end_date: "2031-05-10" }

/** What a client acts on in an error: all but the request id. */
const errorOf = (res: ApiResponse) => {
  const { request_id: _, ...error } = res.json<ErrorBody>().error
  return { status: res.status, ...error }
}

layer(TestApiLive)("POST /ari: bodies and retries", (it) => {
  it.effect("a body that is not JSON, or not an object, is refused as on every POST", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const notJson = yield* api.request("POST", "/ari", { raw: "{\"items\": [" })
      expectError(notJson, 400, "invalid_request", "invalid_json")
      expect(errorOf(notJson)).toEqual(errorOf(yield* api.request("POST", "/guests", { raw: "{\"items\": [" })))
      for (const body of [[1, 2], "items", 7]) {
        const res = yield* postAriRaw(api, body)
        expect(res.status, JSON.stringify(body)).toBe(400)
        expect(errorOf(res), JSON.stringify(body)).toEqual(errorOf(yield* api.post("/guests", body)))
      }
      // A JSON null reads as an empty object on every POST: its first required field is named.
      expectInvalid(yield* postAriRaw(api, null), "items")
      expect(errorOf(yield* postAriRaw(api, null))).toEqual(errorOf(yield* postAriRaw(api, {})))
      expect(errorOf(yield* api.post("/guests", null))).toEqual(errorOf(yield* api.post("/guests", {})))
    }))

  it.effect("an entry of items that is null names items[i]", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const plan = yield* createPlan(api)
      expectInvalid(yield* postAriRaw(api, { items: [null] }), "items[0]")
      expectInvalid(yield* postAriRaw(api, { items: [{ rate_plan_id: plan, ...friday, price: "90.00" }, null] }), "items[1]")
      expect((yield* ariNights(api, plan, friday.start_date, friday.end_date))[0].price).toBe("100.00")
    }))

  it.effect("an inventory item's sell_limit null clears the limit and overbooking null sets 0", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const { imported, key } = yield* importRoomTypes(api, { A: 3 })
      const type = imported.room_types.A
      const controls = Effect.flatMap(api.clientFor(key), (client) =>
        Effect.map(client.inventory.getControls({ params: { id: type }, query: friday }), (answer) => answer.nights))
      yield* postAri(api, [{ room_type_id: type, ...friday, sell_limit: 1, overbooking: 1 }], { key })
      expect(yield* controls).toEqual([{ date: friday.start_date, sell_limit: 1, overbooking: 1 }])
      expect(yield* availabilityOf(api, type, friday.start_date, friday.start_date, { key })).toEqual([[friday.start_date, 0, 2]])
      yield* postAri(api, [{ room_type_id: type, ...friday, sell_limit: null, overbooking: null }], { key })
      expect(yield* controls).toEqual([{ date: friday.start_date, sell_limit: null, overbooking: 0 }])
      expect(yield* availabilityOf(api, type, friday.start_date, friday.start_date, { key })).toEqual([[friday.start_date, 0, 3]])
      // Each alone: a null leaves the other field as it was.
      yield* postAri(api, [{ room_type_id: type, ...friday, sell_limit: 2, overbooking: 1 }], { key })
      yield* postAri(api, [{ room_type_id: type, ...friday, sell_limit: null }], { key })
      expect(yield* controls).toEqual([{ date: friday.start_date, sell_limit: null, overbooking: 1 }])
      expect(yield* availabilityOf(api, type, friday.start_date, friday.start_date, { key })).toEqual([[friday.start_date, 0, 4]])
    }))

  it.effect("a refused call sent again with its Idempotency-Key is refused again, not replayed, and appends no event", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* TestClock.setTime(T0)
      const plan = yield* createPlan(api)
      const foreign = (yield* api.importProperty()).rate_plans["BAR-DBL"]
      const events = Effect.map(
        api.client.events.list({ query: { types: ["ari.changed"] } }),
        (answer) => answer.data.filter((e) => JSON.stringify(e.data).includes(plan)).length
      )
      const headers = { "idempotency-key": `ari-refused-${plan}` }
      const invalid = { items: [{ rate_plan_id: plan, ...friday, price: "90.001" }] }
      const missing = { items: [{ rate_plan_id: plan, ...friday, price: "90.00" }, { rate_plan_id: foreign, ...friday, price: "1.00" }] }
      for (const body of [invalid, invalid, missing, missing]) {
        const res = yield* postAriRaw(api, body, { headers })
        expect(res.status).toBe(body === invalid ? 400 : 404)
        expect(res.headers.get("idempotent-replayed")).toBeNull()
      }
      expect(yield* events).toBe(0)
      expect((yield* ariNights(api, plan, friday.start_date, friday.end_date))[0].price).toBe("100.00")
      // A failure keeps no answer under its key: the corrected call runs under it, once.
      const corrected = { items: [{ rate_plan_id: plan, ...friday, price: "90.00" }] }
      const first = yield* postAriRaw(api, corrected, { headers })
      const replay = yield* postAriRaw(api, corrected, { headers })
      expect([first.status, replay.status, replay.headers.get("idempotent-replayed"), replay.text]).toEqual([200, 200, "true", first.text])
      expect(yield* events).toBe(1)
      expect((yield* ariNights(api, plan, friday.start_date, friday.end_date))[0].price).toBe("90.00")
    }))
})
