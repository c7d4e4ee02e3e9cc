import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { holdBody, newGuest, postHold } from "../utils/booking.js"
import type { ApiResponse, ErrorBody } from "../utils/http.js"
import { expectError } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// Caps on live holds: a guest may have at most 10 live holds at once, a key created with
// `--max-live-holds N` at most N; one more is 409 `hold_limit_reached`. Both hold under real concurrent requests.

const tally = (responses: ReadonlyArray<ApiResponse>) => {
  const counts: Record<string, number> = {}
  for (const res of responses) {
    const label = res.status < 300 ? String(res.status) : `${res.status} ${res.json<ErrorBody>().error.code}`
    counts[label] = (counts[label] ?? 0) + 1
  }
  return counts
}

/** A stay of two nights in 2031 starting `week` weeks after 5 January: a free room for every request. */
const week = (n: number) => ({
  check_in: new Date(Date.UTC(2031, 0, 5 + 7 * n)).toISOString().slice(0, 10),
  check_out: new Date(Date.UTC(2031, 0, 7 + 7 * n)).toISOString().slice(0, 10)
})

layer(TestApiLive, { excludeTestServices: true })("faults: live-hold caps", (it) => {
  it.effect("30 concurrent holds of one guest: exactly 10 succeed, the rest are 409 hold_limit_reached", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const responses = yield* Effect.all(
        Array.from({ length: 30 }, (_, i) => postHold(api, holdBody(api, guest, week(i)))),
        { concurrency: "unbounded" }
      )
      expect(tally(responses)).toEqual({ "201": 10, "409 hold_limit_reached": 20 })
      expectError(responses.find((res) => res.status === 409) ?? responses[0], 409, "conflict", "hold_limit_reached")
      const [{ live }] = yield* api.sql<{ live: number }>`
        SELECT count(*)::int AS live FROM reservations WHERE guest_id = ${guest} AND status = 'tentative'`.pipe(
        Effect.orDie
      )
      expect(live).toBe(10)

      // A cancelled hold frees its place under the cap.
      const held = responses.find((res) => res.status === 201)
      const id = held?.json<{ reservation_id: string }>().reservation_id ?? ""
      expect((yield* api.post(`/reservations/${id}/cancel`)).status).toBe(200)
      expect((yield* postHold(api, holdBody(api, guest, week(40)))).status).toBe(201)
      expectError(yield* postHold(api, holdBody(api, guest, week(41))), 409, "conflict", "hold_limit_reached")
    }), { timeout: 120_000 })

  it.effect("a key with --max-live-holds 3: 30 concurrent holds of different guests, exactly 3 succeed", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = yield* api.createKey({ maxLiveHolds: 3 })
      const guests = yield* Effect.all(Array.from({ length: 30 }, () => newGuest(api)))
      const responses = yield* Effect.all(
        guests.map((guest, i) => postHold(api, holdBody(api, guest, week(i)), { key })),
        { concurrency: "unbounded" }
      )
      expect(tally(responses)).toEqual({ "201": 3, "409 hold_limit_reached": 27 })
      // Other keys are not limited by it.
      expect((yield* postHold(api, holdBody(api, guests[29], week(45)))).status).toBe(201)
    }), { timeout: 120_000 })

  it.effect("checks come first: an unknown room type is still 404 for a guest at the cap", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      for (let i = 0; i < 10; i++) expect((yield* postHold(api, holdBody(api, guest, week(50 + i)))).status).toBe(201)
      expectError(
        yield* postHold(api, holdBody(api, guest, { ...week(61), room_type_id: "00000000-0000-4000-8000-000000000000" })),
        404,
        "not_found",
        "room_type_not_found"
      )
    }))
})
