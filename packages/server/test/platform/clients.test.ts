import { expect, layer } from "@effect/vitest"
import { RatePlanNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

layer(TestApiLive, { excludeTestServices: true })("clients", (it) => {
  it.effect("a client derived from the HttpApi calls /me and gets typed errors back", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      // `api.client` is `HttpApiClient.make(HotelApi)` calling with the test's key (`utils/client.ts`).
      const client = api.client
      const me = yield* client.me.me()
      expect(me.property_id).toBe(api.property.property_id)
      expect(me.request_id).toMatch(/^req_/)
      const missing = yield* client.ratePlanReads.get({ params: { id: "00000000-0000-4000-8000-000000000000" } }).pipe(
        Effect.flip
      )
      expect(missing).toBeInstanceOf(RatePlanNotFound)
      expect(missing._tag).toBe("RatePlanNotFound")
    }))

  it.effect("GET /openapi.json is OpenAPI 3.1 with the real envelope errors", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* api.get("/openapi.json", { key: null })
      expect(res.status).toBe(200)
      const spec = res.json<{ openapi: string; paths: Record<string, unknown> }>()
      expect(spec.openapi).toBe("3.1.0")
      expect(Object.keys(spec.paths)).toContain("/rate-plans/{id}")
      expect(res.text).not.toContain("HttpApiDecodeError")
      expect(res.text).toContain("invalid_parameters")
      expect(res.text).toContain("request_id")
    }))

  it.effect("GET /docs serves the API reference page", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* api.get("/docs", { key: null })
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toContain("text/html")
    }))
})
