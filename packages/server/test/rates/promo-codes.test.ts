import { expect, layer } from "@effect/vitest"
import type { Rates } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { createPlan, expectError, expectInvalid, expectStatus, missingId } from "../utils/rateManagement.js"
import { expiredHold, insertReservation, liveHold } from "../utils/sqlSeed.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"

const createCode = (api: TestApiService, planId: string, body: Rates.PromoCode.PromoCodeCreate) =>
  api.client.promoCodes.create({ path: { id: planId }, payload: body })

layer(TestApiLive, { excludeTestServices: true })("promo codes", (it) => {
  it.effect("POST creates (201 { promo_code_id, code }) in upper case; GET shows the full object", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api, { requires_promo_code: true })
      const res = yield* api.post(`/rate-plans/${plan}/promo-codes`, { code: "Summer-25" })
      expectStatus(res, 201)
      const body = res.json<Record<string, unknown>>()
      expect(Object.keys(body).sort()).toEqual(["code", "promo_code_id"])
      expect(body["code"]).toBe("SUMMER-25")
      const code = yield* api.client.promoCodes.get({ path: { id: String(body["promo_code_id"]) } })
      expect(code).toMatchObject({
        id: body["promo_code_id"],
        rate_plan_id: plan,
        code: "SUMMER-25",
        valid_from: null,
        valid_to: null,
        max_redemptions: null,
        max_per_guest: null,
        is_active: true,
        times_redeemed: 0
      })
      const full = yield* createCode(api, plan, {
        code: "vip",
        valid_from: "2026-01-01",
        valid_to: "2026-01-01",
        max_redemptions: 100,
        max_per_guest: 1
      })
      expect(full.code).toBe("VIP")
      expect(yield* api.client.promoCodes.get({ path: { id: full.promo_code_id } })).toMatchObject({
        code: "VIP",
        valid_from: "2026-01-01",
        valid_to: "2026-01-01",
        max_redemptions: 100,
        max_per_guest: 1,
        is_active: true
      })
    }))

  it.effect("field validation is 400 invalid_parameters naming the field, before the plan lookup", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const post = (body: Record<string, unknown>) => api.post(`/rate-plans/${plan}/promo-codes`, body)
      expectInvalid(yield* post({}), "code")
      expectInvalid(yield* post({ code: 12345 }), "code")
      expectInvalid(yield* post({ code: "AB" }), "code")
      expectInvalid(yield* post({ code: "A".repeat(41) }), "code")
      expectInvalid(yield* post({ code: "TWO WORDS" }), "code")
      expectStatus(yield* post({ code: "ABC" }), 201)
      expectStatus(yield* post({ code: "B".repeat(40) }), 201)
      // counted in characters of the stored (upper-case) code: two emoji are two; "ß" becomes "SS"
      expectInvalid(yield* post({ code: "\u{1F600}\u{1F600}" }), "code")
      expectStatus(yield* post({ code: "\u{1F600}".repeat(3) }), 201)
      expectInvalid(yield* post({ code: "\u00DF".repeat(21) }), "code")
      expect((yield* post({ code: "stra\u00DFe" })).json<{ code: string }>().code).toBe("STRASSE")
      expectInvalid(yield* post({ code: "WINDOW", valid_from: "2026-13-01" }), "valid_from")
      expectInvalid(yield* post({ code: "WINDOW", valid_to: "soon" }), "valid_to")
      expectInvalid(yield* post({ code: "WINDOW", valid_from: "2026-03-02", valid_to: "2026-03-01" }), "valid_to")
      expectInvalid(yield* post({ code: "WINDOW", max_redemptions: 0 }), "max_redemptions")
      expectInvalid(yield* post({ code: "WINDOW", max_redemptions: 2.5 }), "max_redemptions")
      expectInvalid(yield* post({ code: "WINDOW", max_per_guest: -1 }), "max_per_guest")
      expectInvalid(yield* post({ code: "WINDOW", max_per_guest: "1" }), "max_per_guest")
      expectInvalid(
        yield* api.post(`/rate-plans/${missingId}/promo-codes`, { code: "WINDOW", valid_from: "2026-03-02", valid_to: "2026-03-01" }),
        "valid_to"
      )
      expectError(yield* api.post(`/rate-plans/${missingId}/promo-codes`, { code: "WINDOW" }), 404, "not_found", "rate_plan_not_found")
      expectError(yield* api.post("/rate-plans/nope/promo-codes", { code: "WINDOW" }), 404, "not_found", "rate_plan_not_found")
    }))

  it.effect("codes are unique per plan among live codes, case-insensitively (409 promo_code_exists)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const other = yield* createPlan(api)
      const first = yield* createCode(api, plan, { code: "EARLY" })
      expectError(yield* api.post(`/rate-plans/${plan}/promo-codes`, { code: "early" }), 409, "conflict", "promo_code_exists")
      expectError(yield* api.post(`/rate-plans/${plan}/promo-codes`, { code: "EARLY" }), 409, "conflict", "promo_code_exists")
      // The same text on another plan is another code.
      yield* createCode(api, other, { code: "Early" })
      // A deleted code frees its text.
      expectStatus(yield* api.delete(`/promo-codes/${first.promo_code_id}`), 200)
      const again = yield* createCode(api, plan, { code: "early" })
      expect(again.promo_code_id).not.toBe(first.promo_code_id)
    }))

  it.effect("concurrent creates of the same code: exactly one 201, the rest 409 promo_code_exists", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const responses = yield* Effect.all(
        Array.from({ length: 10 }, (_, i) =>
          api.post(`/rate-plans/${plan}/promo-codes`, { code: i % 2 === 0 ? "flash" : "FLASH" })),
        { concurrency: "unbounded" }
      )
      expect(responses.filter((r) => r.status === 201)).toHaveLength(1)
      for (const res of responses.filter((r) => r.status !== 201)) expectError(res, 409, "conflict", "promo_code_exists")
      const list = yield* api.client.promoCodes.list({ path: { id: plan } })
      expect(list["data"]).toHaveLength(1)
    }))

  it.effect("GET /rate-plans/{id}/promo-codes lists live codes by code", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      expect(yield* api.client.promoCodes.list({ path: { id: plan } })).toEqual({ data: [] })
      yield* createCode(api, plan, { code: "zed" })
      yield* createCode(api, plan, { code: "ALPHA" })
      const gone = yield* createCode(api, plan, { code: "beta" })
      yield* createCode(api, plan, { code: "Mid" })
      expectStatus(yield* api.delete(`/promo-codes/${gone.promo_code_id}`), 200)
      const list = yield* api.client.promoCodes.list({ path: { id: plan } })
      const data = list.data
      expect(data.map((c) => c["code"])).toEqual(["ALPHA", "MID", "ZED"])
      expect(data[0]).toMatchObject({ rate_plan_id: plan, is_active: true, times_redeemed: 0 })
    }))

  it.effect("PATCH changes the window, caps and is_active; code is refused; null clears", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const { promo_code_id: id } = yield* createCode(api, plan, {
        code: "SPRING",
        valid_from: "2026-03-01",
        valid_to: "2026-05-31",
        max_redemptions: 10
      })
      const res = yield* api.patch(`/promo-codes/${id}`, { max_per_guest: 2, is_active: false, valid_to: "2026-06-30" })
      expectStatus(res, 200)
      expect(res.json()).toEqual({ promo_code_id: id, updated: true })
      expect(yield* api.client.promoCodes.get({ path: { id: id } })).toMatchObject({
        code: "SPRING",
        valid_from: "2026-03-01",
        valid_to: "2026-06-30",
        max_redemptions: 10,
        max_per_guest: 2,
        is_active: false
      })
      yield* api.client.promoCodes.update({ headers: {}, path: { id: id }, payload: { max_redemptions: null, valid_from: null, is_active: true } })
      expect(yield* api.client.promoCodes.get({ path: { id: id } })).toMatchObject({
        valid_from: null,
        max_redemptions: null,
        is_active: true
      })
      expectInvalid(yield* api.patch(`/promo-codes/${id}`, { code: "SUMMER" }), "code")
      expectInvalid(yield* api.patch(`/promo-codes/${id}`, { code: "SPRING" }), "code")
      expectInvalid(yield* api.patch(`/promo-codes/${id}`, { valid_from: "2026-07-01" }), "valid_to")
      expectInvalid(yield* api.patch(`/promo-codes/${id}`, { valid_from: "2026-02-02", valid_to: "2026-02-01" }), "valid_to")
      expectInvalid(yield* api.patch(`/promo-codes/${id}`, { max_redemptions: 0 }), "max_redemptions")
      expectInvalid(yield* api.patch(`/promo-codes/${id}`, { max_per_guest: 1.5 }), "max_per_guest")
      expectInvalid(yield* api.patch(`/promo-codes/${id}`, { is_active: null }), "is_active")
      expectInvalid(yield* api.patch(`/promo-codes/${missingId}`, { valid_from: "2026-02-02", valid_to: "2026-02-01" }), "valid_to")
      expectError(yield* api.patch(`/promo-codes/${missingId}`, { is_active: false }), 404, "not_found", "promo_code_not_found")
      // A one-day window is fine.
      yield* api.client.promoCodes.update({ headers: {}, path: { id: id }, payload: { valid_from: "2026-06-30" } })
      expect(yield* api.client.promoCodes.get({ path: { id: id } })).toMatchObject({ code: "SPRING", valid_from: "2026-06-30" })
    }))

  it.effect("DELETE answers { promo_code_id, deleted: true }; the code is gone from reads", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const { promo_code_id: id } = yield* createCode(api, plan, { code: "GONE" })
      const res = yield* api.delete(`/promo-codes/${id}`)
      expectStatus(res, 200)
      expect(res.json()).toEqual({ promo_code_id: id, deleted: true })
      expectError(yield* api.get(`/promo-codes/${id}`), 404, "not_found", "promo_code_not_found")
      expectError(yield* api.patch(`/promo-codes/${id}`, { is_active: false }), 404, "not_found", "promo_code_not_found")
      expectError(yield* api.delete(`/promo-codes/${id}`), 404, "not_found", "promo_code_not_found")
      expectError(yield* api.get("/promo-codes/nope"), 404, "not_found", "promo_code_not_found")
      expect(yield* api.client.promoCodes.list({ path: { id: plan } })).toEqual({ data: [] })
      // A deleted plan takes its codes with it.
      const { promo_code_id: kept } = yield* createCode(api, plan, { code: "KEPT" })
      expectStatus(yield* api.delete(`/rate-plans/${plan}`), 200)
      expectError(yield* api.get(`/promo-codes/${kept}`), 404, "not_found", "promo_code_not_found")
      expectError(yield* api.get(`/rate-plans/${plan}/promo-codes`), 404, "not_found", "rate_plan_not_found")
    }))

  it.effect("times_redeemed counts live holds and confirmed-or-later reservations (no-shows included) with the code", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const { promo_code_id: id } = yield* createCode(api, plan, { code: "COUNTED", max_redemptions: 10 })
      const { promo_code_id: otherCode } = yield* createCode(api, plan, { code: "OTHER" })
      type Status = "tentative" | "confirmed" | "checked_in" | "checked_out" | "cancelled" | "no_show"
      const seed = (status: Status, holdExpiresAt: Date | null = null, promoCodeId: string | null = id) =>
        insertReservation(api.sql, api.property.property_id, {
          roomTypeId: api.property.room_types["DBL"],
          ratePlanId: plan,
          checkIn: "2026-09-01",
          checkOut: "2026-09-03",
          status,
          holdExpiresAt,
          promoCodeId
        })
      yield* seed("confirmed")
      yield* seed("checked_in")
      yield* seed("checked_out")
      yield* seed("tentative", liveHold())
      yield* seed("tentative", expiredHold())
      yield* seed("cancelled")
      yield* seed("no_show")
      yield* seed("confirmed", null, otherCode)
      yield* seed("confirmed", null, null)
      expect(yield* api.client.promoCodes.get({ path: { id: id } })).toMatchObject({ times_redeemed: 5 })
      const list = yield* api.client.promoCodes.list({ path: { id: plan } })
      const byCode = new Map(list.data.map((c) => [c.code, c.times_redeemed]))
      expect(byCode.get("COUNTED")).toBe(5)
      expect(byCode.get("OTHER")).toBe(1)
      // Deleting a code does not touch the reservations booked with it.
      expectStatus(yield* api.delete(`/promo-codes/${id}`), 200)
      const rows = yield* api.sql<{ count: number }>`SELECT count(*)::int AS count FROM reservations WHERE promo_code_id = ${id}`
      expect(rows[0]?.count).toBe(7)
    }))

  it.effect("another property's codes and plans are missing ones", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const { promo_code_id: id } = yield* createCode(api, plan, { code: "MINE" })
      const other = yield* api.importProperty()
      const as = { key: yield* api.createKey({ propertyId: other.property_id }) }
      expectError(yield* api.get(`/promo-codes/${id}`, as), 404, "not_found", "promo_code_not_found")
      expectError(yield* api.patch(`/promo-codes/${id}`, { is_active: false }, as), 404, "not_found", "promo_code_not_found")
      expectError(yield* api.delete(`/promo-codes/${id}`, as), 404, "not_found", "promo_code_not_found")
      expectError(yield* api.get(`/rate-plans/${plan}/promo-codes`, as), 404, "not_found", "rate_plan_not_found")
      expectError(yield* api.post(`/rate-plans/${plan}/promo-codes`, { code: "THEIRS" }, as), 404, "not_found", "rate_plan_not_found")
      expect(yield* api.client.promoCodes.get({ path: { id: id } })).toMatchObject({ code: "MINE", is_active: true })
    }))

  it.effect("reads need rates:read, writes rates:write (403 insufficient_scope)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const { promo_code_id: id } = yield* createCode(api, plan, { code: "SCOPED" })
      const reader = { key: yield* api.createKey({ scopes: ["rates:read"] }) }
      const writer = { key: yield* api.createKey({ scopes: ["rates:write"] }) }
      expectStatus(yield* api.get(`/rate-plans/${plan}/promo-codes`, reader), 200)
      expectStatus(yield* api.get(`/promo-codes/${id}`, reader), 200)
      const denied = (res: Parameters<typeof expectError>[0], scope: string) =>
        expect(expectError(res, 403, "permission", "insufficient_scope").message).toContain(scope)
      denied(yield* api.get(`/rate-plans/${plan}/promo-codes`, writer), "rates:read")
      denied(yield* api.get(`/promo-codes/${id}`, writer), "rates:read")
      denied(yield* api.post(`/rate-plans/${plan}/promo-codes`, { code: "NOPE" }, reader), "rates:write")
      denied(yield* api.patch(`/promo-codes/${id}`, { is_active: false }, reader), "rates:write")
      denied(yield* api.delete(`/promo-codes/${id}`, reader), "rates:write")
      expectStatus(yield* api.post(`/rate-plans/${plan}/promo-codes`, { code: "YES" }, writer), 201)
      expectStatus(yield* api.patch(`/promo-codes/${id}`, { is_active: false }, writer), 200)
      expectStatus(yield* api.delete(`/promo-codes/${id}`, writer), 200)
    }))
})
