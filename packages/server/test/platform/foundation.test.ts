import { expect, layer } from "@effect/vitest"
import { keyCacheTtl } from "@hotel/http/platform/KeyCache"
import { ApiKeyRepository } from "@hotel/persistence/platform/ApiKeyRepository"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { InsufficientScope, InvalidApiKey, RatePlanNotFound } from "@hotel/domain"
import { expectFailure } from "../utils/client.js"
import { type ErrorBody, rawRequest, socketRequest } from "../utils/http.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

const expectError = (
  res: { status: number; headers: Headers; json: <T>() => T },
  status: number,
  type: string,
  code: string,
  param?: string
) => {
  expect(res.status).toBe(status)
  const { error } = res.json<ErrorBody>()
  expect(error.type).toBe(type)
  expect(error.code).toBe(code)
  if (param === undefined) expect(error).not.toHaveProperty("param")
  else expect(error.param).toBe(param)
  expect(error.request_id).toMatch(/^req_/)
  expect(error.request_id).toBe(res.headers.get("x-request-id"))
  return error
}

layer(TestApiLive, { excludeTestServices: true })("wire conventions", (it) => {
  it.effect("GET /me returns the key, its scopes and the request id of the response", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const [me, res] = yield* api.client.me.me({ responseMode: "decoded-and-response" })
      expect(res.status).toBe(200)
      expect(me.property_id).toBe(api.property.property_id)
      expect(me.context).toBe("back_office")
      expect(me.expires_at).toBeNull()
      expect(me.scopes).toContain("rates:write")
      expect(me.request_id).toBe(res.headers["x-request-id"])
    }))

  it.effect("every response carries a fresh X-Request-Id", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const a = yield* api.get("/health/live")
      const b = yield* api.get("/health/live")
      expect(a.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]+$/)
      expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"))
    }))

  it.effect("unknown route is 404 unknown_route, with or without a key", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      expectError(yield* api.get("/nope"), 404, "not_found", "unknown_route")
      expectError(yield* api.get("/nope", { key: null }), 404, "not_found", "unknown_route")
      expectError(yield* api.get("/rate-plans/x/y/z"), 404, "not_found", "unknown_route")
    }))

  it.effect("a known path with the wrong method is 405 with Allow", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* api.request("DELETE", "/me")
      expectError(res, 405, "invalid_request", "method_not_allowed")
      expect(res.headers.get("allow")).toContain("GET")
      const put = yield* api.request("PUT", "/room-types")
      expectError(put, 405, "invalid_request", "method_not_allowed")
      // a method that is no HTTP method (Node's parser refuses it before the router) gets the envelope too
      for (const method of ["FOO", "get"]) {
        const res = yield* socketRequest(api.baseUrl, `${method} /me HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${api.key}\r\n\r\n`)
        expectError(res, 405, "invalid_request", "method_not_allowed")
      }
      // CONNECT, which Node hands to no request handler of its own accord, is answered as any other method
      const connect = yield* socketRequest(api.baseUrl, `CONNECT /holds HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${api.key}\r\n\r\n`)
      expectError(connect, 405, "invalid_request", "method_not_allowed")
      expect(connect.headers.get("allow")).toBe("POST")
      const tunnel = yield* socketRequest(api.baseUrl, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
      expectError(tunnel, 404, "not_found", "unknown_route")
      // a line that is no request line at all (no target, no HTTP version, a TLS handshake) is a bare 400
      for (const line of ["garbage\r\n\r\n", "GET\r\n\r\n", "hello world\r\n\r\n", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"]) {
        const res = yield* socketRequest(api.baseUrl, line)
        expect(res.status, JSON.stringify(line)).toBe(400)
        expect(res.text, JSON.stringify(line)).toBe("")
      }
    }))

  it.effect("dot segments and an over-long path id are 404 with the envelope, never 500", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const raw = rawRequest(api.baseUrl, api.key)
      for (const path of ["/./me", "/x/../me", "/%2e/me", "/%2E%2E/me", "/reservations/..", "/reservations/%2e%2e", "/reservations/.", "/folios/.%2E", "/holds/../confirm", "/reservations/./cancel"]) {
        const res = yield* raw("GET", path)
        expectError(res, 404, "not_found", "unknown_route")
      }
      // whatever the method: a dot segment names no endpoint (not a missing reservation, not a 405)
      for (const path of ["/holds/../confirm", "/reservations/%2e%2e/cancel"]) {
        expectError(yield* raw("POST", path), 404, "not_found", "unknown_route")
      }
      const long = "a".repeat(150)
      for (const path of [`/rate-plans/${long}`, `/reservations/${long}`, `/guests/${long}`, `/folios/${long}`]) {
        const res = yield* raw("GET", path)
        expect(res.status, path).toBe(404)
        const { error } = res.json<ErrorBody>()
        expect(["unknown_route", "rate_plan_not_found", "reservation_not_found", "guest_not_found", "folio_not_found"])
          .toContain(error.code)
        expect(error.request_id).toBe(res.headers.get("x-request-id"))
      }
      // Far past Node's default header bound: still routed, and the message does not repeat it all.
      const huge = yield* raw("GET", `/${"x".repeat(200_000)}`)
      expectError(huge, 404, "not_found", "unknown_route")
      expect(huge.json<ErrorBody>().error.message.length).toBeLessThan(300)
      // `;` and `#` are characters of the path, not the start of its query: such a path names no endpoint.
      for (const path of ["/me;x", "/reservations;limit=2", "/rate-plans;abc/x", "/me#x", "/reservations%3Bx"]) {
        expectError(yield* raw("GET", path), 404, "not_found", "unknown_route")
      }
      expectError(yield* raw("POST", "/holds;x"), 404, "not_found", "unknown_route")
      // Without a key they are the same 404: routing comes before authentication.
      expectError(yield* rawRequest(api.baseUrl, null)("GET", "/./me"), 404, "not_found", "unknown_route")
      expectError(yield* rawRequest(api.baseUrl, null)("GET", `/rate-plans/${long}`), 404, "not_found", "unknown_route")
    }))

  it.effect("a malformed percent-escape in the path is 404 with the envelope, for every method, never 500", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const raw = rawRequest(api.baseUrl, api.key)
      const paths = ["/reservations/%ZZ", "/rate-plans/%ZZ/intervals", "/%", "/%ZZ", "/holds/%E0%A4%A/confirm", "/guests/%"]
      for (const method of ["GET", "POST", "PATCH", "DELETE"]) {
        for (const path of paths) {
          const res = yield* raw(method, path)
          expect(res.status, `${method} ${path}`).toBe(404)
          const { error } = res.json<ErrorBody>()
          expect(error.type).toBe("not_found")
          expect(error.code === "unknown_route" || error.code.endsWith("_not_found"), error.code).toBe(true)
          expect(error.request_id).toBe(res.headers.get("x-request-id"))
        }
      }
    }))

  it.effect("routes ignore case and a trailing slash", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      expect((yield* api.get("/ME/")).status).toBe(200)
    }))

  it.effect("a malformed path id is the resource's 404", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      expectError(yield* api.get("/rate-plans/not-a-uuid"), 404, "not_found", "rate_plan_not_found")
      yield* expectFailure(api.client.ratePlanReads.get({ params: { id: "00000000-0000-4000-8000-000000000000" } }), RatePlanNotFound)
    }))

  it.effect("a database failure is a 500 internal_error without SQL or stack", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* api.sql`ALTER TABLE services RENAME TO services_hidden`.pipe(Effect.orDie)
      const res = yield* api.get("/services")
      yield* api.sql`ALTER TABLE services_hidden RENAME TO services`.pipe(Effect.orDie)
      const error = expectError(res, 500, "server", "internal_error")
      expect(res.text).not.toMatch(/services_hidden|SELECT|at /)
      expect(error.message).toBe("Internal server error")
    }))
})

layer(TestApiLive, { excludeTestServices: true })("authentication and scopes", (it) => {
  it.effect("no Authorization header is 401 missing_api_key", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      expectError(yield* api.get("/me", { key: null }), 401, "authentication", "missing_api_key")
    }))

  it.effect("a malformed header, a wrong scheme or an unknown key is 401 invalid_api_key", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      for (const authorization of ["Basic abc", "Bearer", "Bearer a b", `bearer${api.key}`, "Bearer hk_unknown"]) {
        const res = yield* api.get("/me", { key: null, headers: { authorization } })
        expectError(res, 401, "authentication", "invalid_api_key")
      }
      // the scheme is case-insensitive and any run of spaces separates it from the key
      for (const authorization of [`bearer ${api.key}`, `BEARER ${api.key}`, `Bearer  ${api.key}`]) {
        expect((yield* api.get("/me", { key: null, headers: { authorization } })).status, authorization).toBe(200)
      }
    }))

  it.effect("an expired or revoked key is 401 invalid_api_key", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const expired = yield* api.createKey({ expiresAt: new Date(Date.now() - 1000) })
      yield* expectFailure(Effect.flatMap(api.clientFor(expired), (client) => client.me.me()), InvalidApiKey)
      const future = yield* api.createKey({ expiresAt: new Date(Date.now() + 3_600_000) })
      const { api_key_id, property_id } = yield* (yield* api.clientFor(future)).me.me()
      expect(property_id).toBe(api.property.property_id)
      const keys = yield* ApiKeyRepository
      yield* keys.revoke(api_key_id).pipe(Effect.orDie)
      // A process trusts a key it looked up for `keyCacheTtl`: the revocation is honoured once that has passed.
      yield* Effect.sleep(Duration.sum(keyCacheTtl, Duration.millis(50)))
      yield* expectFailure(Effect.flatMap(api.clientFor(future), (client) => client.me.me()), InvalidApiKey)
    }).pipe(Effect.provide(ApiKeyRepository.layer)))

  it.effect("a key without the endpoint's scope is 403 insufficient_scope naming it", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const none = yield* api.createKey({ scopes: [] })
      // `/me` needs no scope
      expect((yield* (yield* api.clientFor(none)).me.me()).scopes).toEqual([])
      const error = expectError(yield* api.get("/room-types", { key: none }), 403, "permission", "insufficient_scope")
      expect(error.message).toContain("catalog:read")
      const ratesOnly = yield* api.createKey({ scopes: ["rates:read"] })
      const plans = yield* expectFailure((yield* api.clientFor(ratesOnly)).ratePlanReads.list(), InsufficientScope)
      expect(plans.message).toContain("catalog:read")
    }))

  it.effect("authentication comes before validation and routing of the body", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      expectError(yield* api.get("/rate-plans/not-a-uuid", { key: null }), 401, "authentication", "missing_api_key")
    }))
})

layer(TestApiLive, { excludeTestServices: true })("catalogue reads", (it) => {
  it.effect("GET /property shows the imported property with a short Cache-Control", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const [body, res] = yield* api.client.catalog.property({ responseMode: "decoded-and-response" })
      expect(res.status).toBe(200)
      expect(res.headers["cache-control"]).toMatch(/max-age=\d+/)
      expect(body).toMatchObject({
        id: api.property.property_id,
        timezone: "Europe/Lisbon",
        base_currency: "EUR",
        currencies: [{ currency: "USD", rate_to_base: "0.92" }],
        default_rate_plan_id: api.property.default_rate_plan_id
      })
    }))

  it.effect("GET /room-types and /services list the whole set", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const [{ data: roomTypes }, rooms] = yield* api.client.catalog.roomTypes({ responseMode: "decoded-and-response" })
      expect(rooms.headers["cache-control"]).toMatch(/max-age/)
      expect(roomTypes.map((r) => r.code)).toEqual(["DBL", "STE"])
      expect(roomTypes[0]?.rooms).toHaveLength(3)
      const services = (yield* api.client.catalog.services()).data
      expect(services.find((s) => s.code === "BRK")).toMatchObject({
        price: "15.00",
        currency: "EUR",
        pricing_unit: "perGuestPerNight"
      })
    }))

  it.effect("GET /rate-plans and /rate-plans/{id} show every field with money in minor units", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const list = (yield* api.client.ratePlanReads.list()).data
      expect(list).toHaveLength(3)
      const usdId = api.property.rate_plans["USD-DBL"]
      expect(list.map((p) => p.id)).toContain(usdId)
      expect(yield* api.client.ratePlanReads.get({ params: { id: usdId } })).toMatchObject({
        id: usdId,
        currency: "USD",
        base_price: "130.00",
        extra_guest_charge: "30.00",
        single_guest_discount: "0.00",
        kind: "standard",
        is_default: false,
        requires_promo_code: false
      })
    }))

  it.effect("another property's data is indistinguishable from missing data", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const other = yield* api.importProperty()
      const otherKey = yield* api.createKey({ propertyId: other.property_id })
      const theirClient = yield* api.clientFor(otherKey)
      const plan = api.property.default_rate_plan_id
      yield* expectFailure(theirClient.ratePlanReads.get({ params: { id: plan } }), RatePlanNotFound)
      const theirs = (yield* theirClient.ratePlanReads.list()).data
      expect(theirs.map((p) => p.id)).not.toContain(plan)
      const property = yield* theirClient.catalog.property()
      expect(property.id).toBe(other.property_id)
      const rooms = (yield* theirClient.catalog.roomTypes()).data
      expect(rooms.map((r) => r.id)).not.toContain(api.property.room_types["DBL"])
    }))
})
