import { expect, layer } from "@effect/vitest"
import {
  GuestNotFound,
  InsufficientPoints,
  InsufficientScope,
  InvalidParameters,
  type Loyalty,
  ReservationNotFound
} from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { cancel, newGuest } from "../utils/booking.js"
import { clientOf, expectFailure } from "../utils/client.js"
import type { ApiResponse, RequestOptions } from "../utils/http.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { insertPlan } from "../utils/sqlSeed.js"
import { book, loyaltyBalance } from "../utils/stay.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"

// POST /guests/{id}/loyalty/redemptions: debits the ledger; more than the balance (or any
// redemption while the balance is negative) is 409 insufficient_points, also when redemptions race.

/** A raw redemption, for malformed bodies and the wire of a refusal. */
const redeem = (api: TestApiService, guestId: string, body: unknown, options?: RequestOptions) =>
  api.post(`/guests/${guestId}/loyalty/redemptions`, body, options)

/** A redemption through the typed client. */
const redeemed = (api: TestApiService, guestId: string, payload: Loyalty.Redemption, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.loyalty.redeem({ headers: {}, params: { id: guestId }, payload }))

const insufficient = (res: ApiResponse) => expectError(res, 409, "conflict", "insufficient_points")

/** A redemption the balance does not cover: 409 insufficient_points, decoded. */
const notCovered = (api: TestApiService, guestId: string, points: number) =>
  expectFailure(redeemed(api, guestId, { points }), InsufficientPoints)

/** A confirmed USD stay of three nights at 130.00: 390 USD of room revenue earns 3900 points. */
const earn = (api: TestApiService, dates: { check_in: string; check_out: string }, guestId?: string) =>
  book(api, { rate_plan_id: api.property.rate_plans["USD-DBL"], ...dates, ...(guestId === undefined ? {} : { guest_id: guestId }) })

layer(TestApiLive, { excludeTestServices: true })("POST /guests/{id}/loyalty/redemptions", (it) => {
  it.effect("a stay earns at most a billion points, and a balance passes 32 bits exactly", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* insertPlan(api.sql, api.property.property_id, api.property.room_types["DBL"], {
        currency: "USD",
        base_price: "1000000000.00"
      })
      // 30 nights at the highest price: 30 billion USD would be 300 billion points
      const first = yield* book(api, { rate_plan_id: plan, check_in: "2031-10-01", check_out: "2031-10-31" })
      expect(yield* loyaltyBalance(api, first.guest_id)).toBe(1_000_000_000)
      for (const check_in of ["2031-11-01", "2031-11-02"]) {
        yield* book(api, { rate_plan_id: plan, guest_id: first.guest_id, check_in, check_out: "2031-11-03" })
      }
      expect(yield* loyaltyBalance(api, first.guest_id)).toBe(3_000_000_000)
      const res = yield* redeemed(api, first.guest_id, { points: 1_000_000_000 })
      expect(res.loyalty_points).toBe(2_000_000_000)
    }))

  it.effect("an earn on a confirmed USD stay, then a redemption that debits the ledger (201)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const stay = yield* earn(api, { check_in: "2031-09-01", check_out: "2031-09-04" })
      expect(yield* loyaltyBalance(api, stay.guest_id)).toBe(3900)

      const redeem201 = (payload: Loyalty.Redemption) =>
        api.client.loyalty.redeem({ headers: {}, params: { id: stay.guest_id }, payload, responseMode: "decoded-and-response" })
      const [body, res] = yield* redeem201({ points: 1000 })
      expect(res.status).toBe(201)
      expect(res.headers["cache-control"]).toBe("no-store")
      expect(body).toEqual({
        redemption_id: body.redemption_id,
        guest_id: stay.guest_id,
        reservation_id: null,
        points: 1000,
        loyalty_points: 2900
      })
      expect(body.redemption_id).toMatch(/^[0-9a-f-]{36}$/)
      expect(yield* loyaltyBalance(api, stay.guest_id)).toBe(2900)

      // Tied to one of the guest's reservations.
      const [tied, tiedRes] = yield* redeem201({ points: 900, reservation_id: stay.reservation_id })
      expect(tiedRes.status).toBe(201)
      expect(tied).toMatchObject({ reservation_id: stay.reservation_id, points: 900, loyalty_points: 2000 })

      const ledger = yield* api.sql<{ id: string; kind: string; points: number; reservation_id: string | null }>`
        SELECT id, kind, points, reservation_id FROM loyalty_ledger WHERE guest_id = ${stay.guest_id}
        ORDER BY created_at, points DESC`.pipe(Effect.orDie)
      expect(ledger.map((l) => [l.kind, l.points, l.reservation_id])).toEqual([
        ["earn", 3900, stay.reservation_id],
        ["redeem", -1000, null],
        ["redeem", -900, stay.reservation_id]
      ])
      expect(ledger[1].id).toBe(body.redemption_id)
    }))

  it.effect("more than the balance is 409 insufficient_points; exactly the balance empties it", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const stay = yield* earn(api, { check_in: "2031-09-08", check_out: "2031-09-11" })
      // The refusal's wire once; the typed client checks the others.
      expect(insufficient(yield* redeem(api, stay.guest_id, { points: 3901 })).message).toContain("3900")
      expect((yield* redeemed(api, stay.guest_id, { points: 3900 })).loyalty_points).toBe(0)
      yield* notCovered(api, stay.guest_id, 1)
      // A guest who never earned has nothing to redeem.
      yield* notCovered(api, yield* newGuest(api), 1)
      expect(yield* loyaltyBalance(api, stay.guest_id)).toBe(0)
    }))

  it.effect("a negative balance (points reversed after they were spent) blocks any redemption", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const first = yield* earn(api, { check_in: "2031-09-15", check_out: "2031-09-18" })
      expect((yield* redeemed(api, first.guest_id, { points: 3000 })).loyalty_points).toBe(900)
      // The cancel reverses the 3900 points the stay earned: 900 − 3900.
      expect((yield* cancel(api, first.reservation_id)).status).toBe("cancelled")
      expect(yield* loyaltyBalance(api, first.guest_id)).toBe(-3000)
      expect((yield* notCovered(api, first.guest_id, 1)).message).toContain("-3000")
      // A new stay earns 3900: the balance is 900 again, and only that much can be redeemed.
      yield* earn(api, { check_in: "2031-09-22", check_out: "2031-09-25" }, first.guest_id)
      yield* notCovered(api, first.guest_id, 901)
      expect((yield* redeemed(api, first.guest_id, { points: 900 })).loyalty_points).toBe(0)
    }))

  it.effect("redemptions racing for the same points: exactly as many succeed as the balance covers", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const stay = yield* earn(api, { check_in: "2031-09-29", check_out: "2031-10-02" })
      // All in flight at once; each ends as a redemption or its decoded error.
      const race = (n: number, points: number) =>
        Effect.all(
          Array.from({ length: n }, () => Effect.result(redeemed(api, stay.guest_id, { points }))),
          { concurrency: "unbounded" }
        )
      const outcome = <A>(result: Result.Result<A, { readonly _tag: string }>) =>
        Result.isSuccess(result) ? "redeemed" : result.failure._tag
      const results = yield* race(10, 1000)
      const outcomes = results.map(outcome).sort()
      expect(outcomes).toEqual([...Array.from({ length: 7 }, () => "InsufficientPoints"), "redeemed", "redeemed", "redeemed"])
      for (const refused of results.flatMap((r) => (Result.isFailure(r) ? [r.failure] : []))) {
        expect(refused).toBeInstanceOf(InsufficientPoints)
      }
      const balances = results.flatMap((r) => (Result.isSuccess(r) ? [r.success.loyalty_points] : [])).sort((a, b) => a - b)
      expect(balances).toEqual([900, 1900, 2900])
      expect(yield* loyaltyBalance(api, stay.guest_id)).toBe(900)

      // The last points, raced for: one winner.
      const last = yield* race(5, 900)
      expect(last.map(outcome).sort()).toEqual([...Array.from({ length: 4 }, () => "InsufficientPoints"), "redeemed"])
      expect(yield* loyaltyBalance(api, stay.guest_id)).toBe(0)
    }))

  it.effect("field validation and referenced ids: 400 by field, 404 by resource", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const stay = yield* earn(api, { check_in: "2031-10-06", check_out: "2031-10-09" })
      for (
        const [body, param] of [
          [{}, "points"],
          [{ points: 0 }, "points"],
          [{ points: -5 }, "points"],
          [{ points: 1.5 }, "points"],
          [{ points: "10" }, "points"],
          [{ points: 1_000_000_001 }, "points"],
          [{ points: 1, reservation_id: "R-1" }, "reservation_id"],
          [{ points: 1, reservation_id: 7 }, "reservation_id"]
        ] as const
      ) {
        expectInvalid(yield* redeem(api, stay.guest_id, body), param)
      }
      expectError(yield* redeem(api, stay.guest_id, undefined, { raw: "nope" }), 400, "invalid_request", "invalid_json")
      // Field validation comes before the path's guest.
      expectInvalid(yield* redeem(api, missingId, { points: 0 }), "points")

      yield* expectFailure(redeemed(api, stay.guest_id, { points: 1, reservation_id: missingId }), ReservationNotFound)
      // Another guest's reservation is the service's check of a well-formed id.
      const someoneElse = yield* earn(api, { check_in: "2031-10-06", check_out: "2031-10-09" })
      yield* expectFailure(
        redeemed(api, stay.guest_id, { points: 1, reservation_id: someoneElse.reservation_id }),
        InvalidParameters,
        "reservation_id"
      )
      // The referenced reservation is checked before the balance.
      yield* expectFailure(redeemed(api, stay.guest_id, { points: 999_999, reservation_id: missingId }), ReservationNotFound)
      expect(yield* loyaltyBalance(api, stay.guest_id)).toBe(3900)
    }))

  it.effect("scope guests:write; unknown, malformed and another property's guests are 404 guest_not_found", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const stay = yield* earn(api, { check_in: "2031-10-13", check_out: "2031-10-16" })
      for (const scopes of [["guests:read"], ["reservations:write", "folios:write"]] as const) {
        const key = yield* api.createKey({ scopes })
        const denied = yield* expectFailure(redeemed(api, stay.guest_id, { points: 1 }, { key }), InsufficientScope)
        expect(denied.message).toContain("guests:write")
      }
      const writer = yield* api.createKey({ scopes: ["guests:write"] })
      expect((yield* redeemed(api, stay.guest_id, { points: 1 }, { key: writer })).loyalty_points).toBe(3899)

      for (const id of [missingId, stay.reservation_id]) {
        yield* expectFailure(redeemed(api, id, { points: 1 }), GuestNotFound)
      }
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      expectError(yield* redeem(api, "G-1", { points: 1 }), 404, "not_found", "guest_not_found")
      const other = yield* api.importProperty()
      const otherKey = yield* api.createKey({ propertyId: other.property_id })
      yield* expectFailure(redeemed(api, stay.guest_id, { points: 1 }, { key: otherKey }), GuestNotFound)
      // Their guest cannot spend against this property's reservation, which is not theirs to see.
      const theirGuest = yield* newGuest(api, other.property_id)
      yield* expectFailure(
        redeemed(api, theirGuest, { points: 1, reservation_id: stay.reservation_id }, { key: otherKey }),
        ReservationNotFound
      )
      expect(yield* loyaltyBalance(api, stay.guest_id)).toBe(3899)
    }))
})
