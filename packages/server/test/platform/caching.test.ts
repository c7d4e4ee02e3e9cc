import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { ApiResponse } from "../utils/http.js"
import { TestApi } from "../utils/TestServer.js"
import { TestApiLive } from "../utils/TestServer.js"

// The catalogue may be cached briefly; live inventory, mutations and errors never.

const cacheControl = (res: ApiResponse) => res.headers.get("cache-control")
const missing = "00000000-0000-4000-8000-000000000000"

layer(TestApiLive, { excludeTestServices: true })("Cache-Control", (it) => {
  it.effect("/property, /room-types, /services and the rate plan reads carry a short private cache", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = `/rate-plans/${api.property.default_rate_plan_id}`
      const paths = ["/property", "/room-types", "/services", "/rate-plans", plan]
      for (const path of paths) {
        const res = yield* api.get(path)
        expect(res.status, path).toBe(200)
        expect(cacheControl(res), path).toBe("private, max-age=60")
      }
    }))

  it.effect("/availability and /rates are live inventory: no-store", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const availability = yield* api.get("/availability?start_date=2031-03-10&end_date=2031-03-13")
      expect(availability.status, availability.text).toBe(200)
      expect(cacheControl(availability)).toBe("no-store")
      const rates = yield* api.get("/rates?check_in=2031-03-10&check_out=2031-03-13&adults=2")
      expect(rates.status, rates.text).toBe(200)
      expect(cacheControl(rates)).toBe("no-store")
    }))

  it.effect("every authenticated mutation is no-store, its successes and its errors", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const [{ rate_plan_id: id }, created] = yield* api.client.ratePlanWrites.create({ headers: {},
        payload: { room_type_id: api.property.room_types["DBL"], name: "Cache test", base_price: "90.00" },
        responseMode: "decoded-and-response"
      })
      expect(created.status).toBe(201)
      expect(created.headers["cache-control"]).toBe("no-store")

      const [, patched] = yield* api.client.ratePlanWrites.update({
        headers: {},
        params: { id },
        payload: { name: "Cache test 2" },
        responseMode: "decoded-and-response"
      })
      expect(patched.status).toBe(200)
      expect(patched.headers["cache-control"]).toBe("no-store")
      const [, deleted] = yield* api.client.ratePlanWrites.delete({ headers: {}, params: { id }, responseMode: "decoded-and-response" })
      expect(deleted.status).toBe(200)
      expect(deleted.headers["cache-control"]).toBe("no-store")

      const failures: ReadonlyArray<ApiResponse> = [
        yield* api.post("/rate-plans", { name: "" }),
        yield* api.request("POST", "/rate-plans", { raw: "{" }),
        yield* api.patch(`/rate-plans/${missing}`, { name: "x" }),
        yield* api.delete(`/rate-plans/${missing}`),
        yield* api.post("/rate-plans", {}, { key: yield* api.createKey({ scopes: ["catalog:read"] }) })
      ]
      for (const res of failures) {
        expect(res.status, res.text).toBeGreaterThanOrEqual(400)
        expect(cacheControl(res), res.text).toBe("no-store")
      }
    }))

  it.effect("an error of a cacheable read is not cached", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const notFound = yield* api.get(`/rate-plans/${missing}`)
      expect(notFound.status).toBe(404)
      expect(cacheControl(notFound)).toBe("no-store")
      const unauthenticated = yield* api.get("/property", { key: null })
      expect(unauthenticated.status).toBe(401)
      expect(cacheControl(unauthenticated)).toBe("no-store")
      const unknown = yield* api.get("/nowhere")
      expect(unknown.status).toBe(404)
      expect(cacheControl(unknown)).toBe("no-store")
    }))
})
