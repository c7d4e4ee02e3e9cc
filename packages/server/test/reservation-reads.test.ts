import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { ErrorBody } from "./utils/http.js"
import { TestApi, TestApiLive } from "./utils/TestServer.js"

layer(TestApiLive, { excludeTestServices: true })("reservation reads", (it) => {
  it.effect("an empty property lists nothing", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* api.get("/reservations")
      expect(res.status).toBe(200)
      expect(res.json()).toEqual({ has_more: false, data: [] })
    }))

  it.effect("limit, offset and status are validated by name", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      for (
        const [query, param] of [
          ["limit=0", "limit"],
          ["limit=101", "limit"],
          ["limit=abc", "limit"],
          ["limit=2.5", "limit"],
          ["offset=-1", "offset"],
          ["offset=10001", "offset"],
          ["status=open", "status"],
          ["guest_id=123", "guest_id"]
        ] as const
      ) {
        const res = yield* api.get(`/reservations?${query}`)
        expect(res.status, query).toBe(400)
        expect(res.json<ErrorBody>().error).toMatchObject({ code: "invalid_parameters", param })
      }
      expect((yield* api.get("/reservations?limit=100&offset=10000")).status).toBe(200)
    }))

  it.effect("scope reservations:read; unknown or malformed ids are 404 reservation_not_found", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const catalogOnly = yield* api.createKey({ scopes: ["catalog:read"] })
      const denied = yield* api.get("/reservations", { key: catalogOnly })
      expect(denied.status).toBe(403)
      expect(denied.json<ErrorBody>().error.message).toContain("reservations:read")
      for (const id of ["00000000-0000-4000-8000-000000000000", "R-123"]) {
        const res = yield* api.get(`/reservations/${id}`)
        expect(res.status).toBe(404)
        expect(res.json<ErrorBody>().error).toMatchObject({ type: "not_found", code: "reservation_not_found" })
      }
    }))
})
