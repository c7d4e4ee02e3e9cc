import { expect, layer } from "@effect/vitest"
import { GuestNotFound, InsufficientScope } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { expectFailure } from "../utils/client.js"
import type { ErrorBody } from "../utils/http.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

const invalid = (res: { status: number; json: <T>() => T }, param: string) => {
  expect(res.status).toBe(400)
  const { error } = res.json<ErrorBody>()
  expect(error).toMatchObject({ type: "invalid_request", code: "invalid_parameters", param })
}

layer(TestApiLive, { excludeTestServices: true })("guests", (it) => {
  it.effect("POST /guests creates a guest (201) and GET /guests/{id} shows it with a zero loyalty balance", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const [{ guest_id }, created] = yield* api.client.guests.create({ headers: {},
        payload: { first_name: "Ana", last_name: "Silva", email: "ana@example.com" },
        responseMode: "decoded-and-response"
      })
      expect(created.status).toBe(201)
      expect(created.headers["cache-control"]).toBe("no-store")
      const guest = yield* api.client.guests.get({ params: { id: guest_id } })
      expect(guest).toMatchObject({
        id: guest_id,
        first_name: "Ana",
        last_name: "Silva",
        email: "ana@example.com",
        phone: null,
        language: null,
        loyalty_points: 0
      })
      expect(guest.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/)
    }))

  it.effect("names are required, 1 to 100 characters", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      invalid(yield* api.post("/guests", { last_name: "Silva" }), "first_name")
      invalid(yield* api.post("/guests", { first_name: "", last_name: "Silva" }), "first_name")
      invalid(yield* api.post("/guests", { first_name: "Ana", last_name: "x".repeat(101) }), "last_name")
      invalid(yield* api.post("/guests", { first_name: "Ana", last_name: 7 }), "last_name")
      invalid(yield* api.post("/guests", { first_name: "Ana", last_name: "S", email: "nope" }), "email")
    }))

  it.effect("a body that is not JSON is 400 invalid_json", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* api.request("POST", "/guests", { raw: "{not json" })
      expect(res.status).toBe(400)
      expect(res.json<ErrorBody>().error).toMatchObject({ type: "invalid_request", code: "invalid_json" })
      expect(res.json<ErrorBody>().error).not.toHaveProperty("param")
    }))

  it.effect("a body over 1 MiB is 413 payload_too_large", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* api.post("/guests", { first_name: "A", last_name: "B", notes: "x".repeat(1_100_000) })
      expect(res.status).toBe(413)
      expect(res.json<ErrorBody>().error).toMatchObject({ type: "invalid_request", code: "payload_too_large" })
    }))

  it.effect("scopes guests:write and guests:read", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const readOnly = yield* api.createKey({ scopes: ["guests:read"] })
      const readOnlyClient = yield* api.clientFor(readOnly)
      const refused = yield* expectFailure(readOnlyClient.guests.create({ headers: {}, payload: { first_name: "A", last_name: "B" } }), InsufficientScope)
      expect(refused.message).toContain("guests:write")
      const writeOnly = yield* api.createKey({ scopes: ["guests:write"] })
      const writer = yield* api.clientFor(writeOnly)
      const { guest_id } = yield* writer.guests.create({ headers: {}, payload: { first_name: "A", last_name: "B" } })
      const denied = yield* expectFailure(writer.guests.get({ params: { id: guest_id } }), InsufficientScope)
      expect(denied.message).toContain("guests:read")
      const reader = yield* api.clientFor(readOnly)
      expect((yield* reader.guests.get({ params: { id: guest_id } })).id).toBe(guest_id)
    }))

  it.effect("another property's guest, an unknown id and a malformed id are 404 guest_not_found", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest_id } = yield* api.client.guests.create({ headers: {}, payload: { first_name: "A", last_name: "B" } })
      const other = yield* api.importProperty()
      const otherKey = yield* api.createKey({ propertyId: other.property_id })
      const theirs = yield* api.clientFor(otherKey)
      yield* expectFailure(theirs.guests.get({ params: { id: guest_id } }), GuestNotFound)
      yield* expectFailure(api.client.guests.get({ params: { id: "00000000-0000-4000-8000-000000000000" } }), GuestNotFound)
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      const res = yield* api.get("/guests/123")
      expect(res.status).toBe(404)
      expect(res.json<ErrorBody>().error).toMatchObject({ type: "not_found", code: "guest_not_found" })
    }))
})
