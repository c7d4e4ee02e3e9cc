import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { HoldCreated } from "@hotel/api/booking/Api"
import { cancel, hold, holdBody, importedHoldBody, importRoomTypes, newGuest, postHold } from "../utils/booking.js"
import { bodyAs } from "../utils/client.js"
import type { ApiResponse, ErrorBody } from "../utils/http.js"
import { expectError, missingId } from "../utils/rateManagement.js"
import { insertPlan, insertPromoCode } from "../utils/sqlSeed.js"
import { TestApi, TestApiLive, type TestApiService } from "../utils/TestServer.js"

// Caps on live holds: a guest may have at most 10 live holds at once, a key created with
// `--max-live-holds N` at most N; one more is 409 `hold_limit_reached`. Both hold under real concurrent requests,
// also when the holds are of different room types (serialised by the guest's or key's lock alone, taken before
// the room type's) and some take promo codes' locks too: any lock cycle would be a 500.

const tally = (responses: ReadonlyArray<ApiResponse>) => {
  const counts: Record<string, number> = {}
  for (const res of responses) {
    const label = res.status < 300 ? String(res.status) : `${res.status} ${res.json<ErrorBody>().error.code}`
    counts[label] = (counts[label] ?? 0) + 1
  }
  return counts
}

/** A promo-gated plan on a room type with the code OPEN (no cap). */
const promoPlanOn = (api: TestApiService, propertyId: string, roomTypeId: string) =>
  Effect.gen(function*() {
    const plan = yield* insertPlan(api.sql, propertyId, roomTypeId, { requires_promo_code: true, kind: "promotion" })
    yield* insertPromoCode(api.sql, propertyId, plan, { code: "OPEN" })
    return plan
  })

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
      const id = held === undefined ? "" : bodyAs(held, HoldCreated).reservation_id
      expect((yield* cancel(api, id)).status).toBe("cancelled")
      expect((yield* hold(api, holdBody(api, guest, week(40)))).status).toBe("tentative")
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
      expect((yield* hold(api, holdBody(api, guests[29], week(45)))).status).toBe("tentative")
    }), { timeout: 120_000 })

  it.effect("one guest's 30 concurrent holds on three room types, a third with a promo code: exactly 10 succeed", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { guest, imported, key } = yield* importRoomTypes(api, { A: 2, B: 2, C: 2 })
      const promoPlan = yield* promoPlanOn(api, imported.property_id, imported.room_types["A"])
      const responses = yield* Effect.all(
        Array.from({ length: 30 }, (_, i) => {
          const body = importedHoldBody(imported, ["A", "B", "C"][i % 3], guest, week(i))
          return postHold(api, i % 3 === 0 ? { ...body, rate_plan_id: promoPlan, promo_code: "open" } : body, { key })
        }),
        { concurrency: "unbounded" }
      )
      expect(tally(responses)).toEqual({ "201": 10, "409 hold_limit_reached": 20 })
    }), { timeout: 120_000 })

  it.effect("a key with --max-live-holds 3: 30 concurrent holds of 10 guests on three room types, exactly 3", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported } = yield* importRoomTypes(api, { A: 2, B: 2, C: 2 })
      const promoPlan = yield* promoPlanOn(api, imported.property_id, imported.room_types["B"])
      const key = yield* api.createKey({ propertyId: imported.property_id, maxLiveHolds: 3 })
      const guests = yield* Effect.all(Array.from({ length: 10 }, () => newGuest(api, imported.property_id)))
      const responses = yield* Effect.all(
        Array.from({ length: 30 }, (_, i) => {
          const body = importedHoldBody(imported, ["A", "B", "C"][i % 3], guests[i % 10], week(i))
          return postHold(api, i % 3 === 1 ? { ...body, rate_plan_id: promoPlan, promo_code: "open" } : body, { key })
        }),
        { concurrency: "unbounded" }
      )
      expect(tally(responses)).toEqual({ "201": 3, "409 hold_limit_reached": 27 })
    }), { timeout: 120_000 })

  it.effect("checks come first: an unknown room type is still 404 for a guest at the cap", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      for (let i = 0; i < 10; i++) expect((yield* hold(api, holdBody(api, guest, week(50 + i)))).status).toBe("tentative")
      expectError(
        yield* postHold(api, holdBody(api, guest, { ...week(61), room_type_id: "00000000-0000-4000-8000-000000000000" })),
        404,
        "not_found",
        "room_type_not_found"
      )
      // With a promo code (the request is checked after the locks): ids still first, the cap before party size.
      const gated = yield* promoPlanOn(api, api.property.property_id, api.property.room_types["DBL"])
      const promo = holdBody(api, guest, { ...week(62), rate_plan_id: gated, promo_code: "open" })
      expectError(yield* postHold(api, { ...promo, room_type_id: missingId }), 404, "not_found", "room_type_not_found")
      expectError(yield* postHold(api, { ...promo, adults: 4 }), 409, "conflict", "hold_limit_reached")
    }))
})
