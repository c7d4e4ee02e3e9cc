import { expect, layer } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ApiResponse } from "../utils/http.js"
import { expectError } from "../utils/rateManagement.js"
import { TestApi, TestApiLive, type TestApiService } from "../utils/TestServer.js"

// CORS through the real server, under three settings of `HOTEL_CORS_ORIGINS`.

const withCorsOrigins = (value: string | undefined) =>
  TestApiLive.pipe(Layer.provide(ConfigProvider.layerAdd(
    ConfigProvider.fromEnv({ env: value === undefined ? {} : { HOTEL_CORS_ORIGINS: value } }),
    { asPrimary: true }
  )))

const booking = "https://book.example.com"

const preflight = (api: TestApiService, path: string, origin: string) =>
  api.request("OPTIONS", path, {
    key: null,
    headers: { origin, "access-control-request-method": "PATCH", "access-control-request-headers": "authorization, if-match" }
  })

const exposed = ["X-Request-Id", "ETag", "Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "Idempotent-Replayed"]
const requestHeaders = ["Authorization", "Content-Type", "Idempotency-Key", "If-Match", "If-None-Match"]

const list = (res: ApiResponse, header: string) => (res.headers.get(header) ?? "").split(",").map((item) => item.trim())

layer(withCorsOrigins(`${booking}, https://admin.example.com`), { excludeTestServices: true })("CORS with a list of origins", (it) => {
  it.effect("a preflight from an allowed origin is 204 with the methods and headers, without a key", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* preflight(api, `/rate-plans/${api.property.rate_plans["BAR-DBL"]}`, booking)
      expect(res.status, res.text).toBe(204)
      expect(res.headers.get("access-control-allow-origin")).toBe(booking)
      expect(list(res, "access-control-allow-methods")).toEqual(expect.arrayContaining(["GET", "PATCH", "DELETE"]))
      expect(list(res, "access-control-allow-headers")).toEqual(requestHeaders)
      expect(res.headers.get("x-request-id")).toMatch(/^req_/)
    }))

  it.effect("answers to an allowed origin carry Access-Control-Allow-Origin and expose the API's headers, errors too", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const ok = yield* api.get("/property", { headers: { origin: booking } })
      expect(ok.status).toBe(200)
      expect(ok.headers.get("access-control-allow-origin")).toBe(booking)
      expect(list(ok, "access-control-expose-headers")).toEqual(exposed)
      expect(ok.headers.get("vary")).toContain("Origin")
      const unauthorised = yield* api.get("/property", { key: null, headers: { origin: booking } })
      expectError(unauthorised, 401, "authentication", "missing_api_key")
      expect(unauthorised.headers.get("access-control-allow-origin")).toBe(booking)
    }))

  it.effect("another origin gets no Access-Control-Allow-Origin; its preflight is not answered as one", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const other = "https://evil.example.net"
      const res = yield* preflight(api, "/property", other)
      expect(res.status).toBe(405)
      expect(res.headers.get("access-control-allow-origin")).toBeNull()
      const read = yield* api.get("/property", { headers: { origin: other } })
      expect(read.status).toBe(200)
      expect(read.headers.get("access-control-allow-origin")).toBeNull()
      expect(read.headers.get("access-control-expose-headers")).toBeNull()
      // the answer still depends on the Origin (a listed one would get the CORS headers): caches must key on it
      expect(read.headers.get("vary")).toContain("Origin")
      expect((yield* api.get("/property")).headers.get("vary")).toContain("Origin")
    }))

  it.effect("a preflight of a path no endpoint serves is 404 unknown_route; a plain OPTIONS stays 405", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const unknown = yield* preflight(api, "/nowhere", booking)
      expectError(unknown, 404, "not_found", "unknown_route")
      expect(unknown.headers.get("access-control-allow-origin")).toBe(booking)
      const plain = yield* api.request("OPTIONS", "/property", { key: null })
      expectError(plain, 405, "invalid_request", "method_not_allowed")
    }))
})

layer(withCorsOrigins("*"), { excludeTestServices: true })("CORS with *", (it) => {
  it.effect("any origin's preflight is 204 and its answers carry Access-Control-Allow-Origin: *", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const origin = "https://anyone.example.org"
      const res = yield* preflight(api, "/property", origin)
      expect(res.status).toBe(204)
      expect(res.headers.get("access-control-allow-origin")).toBe("*")
      const read = yield* api.get("/property", { headers: { origin } })
      expect(read.headers.get("access-control-allow-origin")).toBe("*")
      expect(list(read, "access-control-expose-headers")).toEqual(exposed)
    }))
})

layer(withCorsOrigins(undefined), { excludeTestServices: true })("CORS off", (it) => {
  it.effect("without HOTEL_CORS_ORIGINS a preflight is 405 and no answer has CORS headers", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* preflight(api, "/property", booking)
      expectError(res, 405, "invalid_request", "method_not_allowed")
      expect(res.headers.get("access-control-allow-origin")).toBeNull()
      const read = yield* api.get("/property", { headers: { origin: booking } })
      expect(read.headers.get("access-control-allow-origin")).toBeNull()
    }))
})
