import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { ErrorBody } from "./utils/http.js"
import { TestApi, TestApiLive } from "./utils/TestServer.js"

layer(TestApiLive, { excludeTestServices: true })("foundation", (it) => {
  it.effect("GET /me returns the key and the request id", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* api.get("/me")
      expect(res.status).toBe(200)
      const body = res.json<{ request_id: string; property_id: string }>()
      expect(body.property_id).toBe(api.property.property_id)
      expect(res.headers.get("x-request-id")).toBe(body.request_id)
      expect(body.request_id).toMatch(/^req_/)
    }))

  it.effect("unknown route", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* api.get("/nope")
      expect(res.status).toBe(404)
      const body = res.json<ErrorBody>()
      expect(body.error.code).toBe("unknown_route")
      expect(body.error.request_id).toBe(res.headers.get("x-request-id"))
    }))

  describe("errors", () => {
    it.effect("wrong method", () =>
      Effect.gen(function*() {
        const api = yield* TestApi
        const res = yield* api.request("DELETE", "/me")
        expect(res.status).toBe(405)
        expect(res.json<ErrorBody>().error.code).toBe("method_not_allowed")
        expect(res.headers.get("allow")).toContain("GET")
      }))
  })
})
