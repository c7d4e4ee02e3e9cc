import { expect, layer } from "@effect/vitest"
import { InsufficientScope, ReservationNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { hold, importedHoldBody, importRoomTypes } from "../utils/booking.js"
import { expectFailure } from "../utils/client.js"
import type { ErrorBody } from "../utils/http.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

layer(TestApiLive, { excludeTestServices: true })("reservation reads", (it) => {
  it.effect("an empty property lists nothing", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const [page, res] = yield* api.client.reservationReads.list({ query: {}, responseMode: "decoded-and-response" })
      expect(res.status).toBe(200)
      expect(page).toEqual({ has_more: false, data: [] })
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
          // only plain digits: no other spelling of a number
          ["limit=0x5", "limit"],
          ["limit=1e1", "limit"],
          ["limit=%2B5", "limit"],
          ["limit=5.0", "limit"],
          ["limit=%205", "limit"],
          ["offset=1e3", "offset"],
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
      // The bounds themselves are accepted.
      expect(yield* api.client.reservationReads.list({ query: { limit: 100, offset: 10000 } }))
        .toEqual({ has_more: false, data: [] })
    }))

  it.effect("scope reservations:read; unknown or malformed ids are 404 reservation_not_found", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const catalogOnly = yield* api.clientFor(yield* api.createKey({ scopes: ["catalog:read"] }))
      const denied = yield* expectFailure(catalogOnly.reservationReads.list({ query: {} }), InsufficientScope)
      expect(denied.message).toContain("reservations:read")
      const reader = yield* api.clientFor(yield* api.createKey({ scopes: ["reservations:read"] }))
      expect((yield* reader.reservationReads.list({ query: {} })).has_more).toBe(false)
      yield* expectFailure(
        api.client.reservationReads.get({ params: { id: "00000000-0000-4000-8000-000000000000" } }),
        ReservationNotFound
      )
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      const res = yield* api.get("/reservations/R-123")
      expect(res.status).toBe(404)
      expect(res.json<ErrorBody>().error).toMatchObject({ type: "not_found", code: "reservation_not_found" })
    }))

  it.effect("GET /reservations pages through every reservation exactly once, in check-in order", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key, guest } = yield* importRoomTypes(api, { A: 3, B: 3 })
      const client = yield* api.clientFor(key)
      const created: Array<string> = []
      const nights = ["2031-07-09", "2031-07-02", "2031-07-05", "2031-07-02", "2031-07-20", "2031-07-05", "2031-07-01"]
      for (const [i, checkIn] of nights.entries()) {
        const rt = i % 2 === 0 ? "A" : "B"
        const day = Number(checkIn.slice(8)) + 1
        const stay = { check_in: checkIn, check_out: `2031-07-${String(day).padStart(2, "0")}` }
        const held = yield* hold(api, importedHoldBody(imported, rt, guest, stay), { key })
        created.push(held.reservation_id)
      }
      for (const limit of [1, 2, 3, 7, 25]) {
        const seen: Array<{ id: string; check_in_date: string }> = []
        for (let offset = 0;; offset += limit) {
          const page = yield* client.reservationReads.list({ query: { limit, offset } })
          expect(page.has_more).toBe(offset + page.data.length < created.length)
          expect(page.data.length).toBeLessThanOrEqual(limit)
          seen.push(...page.data)
          if (!page.has_more) break
        }
        expect(seen.map((r) => r.id).sort()).toEqual([...created].sort())
        expect(new Set(seen.map((r) => r.id)).size).toBe(created.length)
        const dates = seen.map((r) => r.check_in_date)
        expect(dates).toEqual([...dates].sort())
      }
      const tentative = yield* client.reservationReads.list({ query: { status: "tentative", guest_id: guest, limit: 100 } })
      expect(tentative.data).toHaveLength(created.length)
    }))
})
