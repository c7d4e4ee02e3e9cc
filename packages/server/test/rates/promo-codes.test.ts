import { expect, layer } from "@effect/vitest"
import { InsufficientScope, InvalidParameters, PromoCodeExists, PromoCodeNotFound, RatePlanNotFound, type Rates } from "@hotel/domain"
import { PromoCodeCreated } from "@hotel/api/rates/Api"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { bodyAs, expectFailure } from "../utils/client.js"
import { createPlan, expectError, expectInvalid, expectStatus, missingId } from "../utils/rateManagement.js"
import { expiredHold, insertReservation, liveHold } from "../utils/sqlSeed.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"

const createCode = (api: TestApiService, planId: string, body: Rates.PromoCode.PromoCodeCreate) =>
  api.client.promoCodes.create({ headers: {}, params: { id: planId }, payload: body })

const updateCode = (api: TestApiService, id: string, payload: Rates.PromoCode.PromoCodePatch) =>
  api.client.promoCodes.update({ headers: {}, params: { id }, payload })

const deleteCode = (api: TestApiService, id: string) => api.client.promoCodes.delete({ headers: {}, params: { id } })

/** A well-formed request the rules refuse: 400 invalid_parameters naming `param`, decoded by the typed client. */
const invalid = <A, E, R>(call: Effect.Effect<A, E, R>, param: string) => expectFailure(call, InvalidParameters, param)

layer(TestApiLive, { excludeTestServices: true })("promo codes", (it) => {
  it.effect("POST creates (201 { promo_code_id, code }) in upper case; GET shows the full object", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api, { requires_promo_code: true })
      const res = yield* api.post(`/rate-plans/${plan}/promo-codes`, { code: "Summer-25" })
      // The exact wire: 201 and these keys only.
      expectStatus(res, 201)
      expect(Object.keys(res.json()).sort()).toEqual(["code", "promo_code_id"])
      const body = bodyAs(res, PromoCodeCreated)
      expect(body.code).toBe("SUMMER-25")
      const code = yield* api.client.promoCodes.get({ params: { id: body.promo_code_id } })
      expect(code).toMatchObject({
        id: body.promo_code_id,
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
      expect(yield* api.client.promoCodes.get({ params: { id: full.promo_code_id } })).toMatchObject({
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
      // Malformed bodies (which the typed client would not send) on the wire; well-formed ones through the client.
      const post = (body: Record<string, unknown>) => api.post(`/rate-plans/${plan}/promo-codes`, body)
      const created = (code: string) => Effect.map(createCode(api, plan, { code }), (answer) => answer.code)
      expectInvalid(yield* post({}), "code")
      expectInvalid(yield* post({ code: 12345 }), "code")
      expectInvalid(yield* post({ code: "AB" }), "code")
      expectInvalid(yield* post({ code: "A".repeat(41) }), "code")
      expectInvalid(yield* post({ code: "TWO WORDS" }), "code")
      expect(yield* created("ABC")).toBe("ABC")
      expect(yield* created("B".repeat(40))).toBe("B".repeat(40))
      // counted in characters of the stored (upper-case) code: two emoji are two; "ß" becomes "SS"
      expectInvalid(yield* post({ code: "\u{1F600}\u{1F600}" }), "code")
      expect(yield* created("\u{1F600}".repeat(3))).toBe("\u{1F600}".repeat(3))
      expectInvalid(yield* post({ code: "\u00DF".repeat(21) }), "code")
      expect(yield* created("stra\u00DFe")).toBe("STRASSE")
      expectInvalid(yield* post({ code: "WINDOW", valid_from: "2026-13-01" }), "valid_from")
      expectInvalid(yield* post({ code: "WINDOW", valid_to: "soon" }), "valid_to")
      yield* invalid(createCode(api, plan, { code: "WINDOW", valid_from: "2026-03-02", valid_to: "2026-03-01" }), "valid_to")
      expectInvalid(yield* post({ code: "WINDOW", max_redemptions: 0 }), "max_redemptions")
      expectInvalid(yield* post({ code: "WINDOW", max_redemptions: 2.5 }), "max_redemptions")
      expectInvalid(yield* post({ code: "WINDOW", max_per_guest: -1 }), "max_per_guest")
      expectInvalid(yield* post({ code: "WINDOW", max_per_guest: "1" }), "max_per_guest")
      yield* invalid(createCode(api, missingId, { code: "WINDOW", valid_from: "2026-03-02", valid_to: "2026-03-01" }), "valid_to")
      yield* expectFailure(createCode(api, missingId, { code: "WINDOW" }), RatePlanNotFound)
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      expectError(yield* api.post("/rate-plans/nope/promo-codes", { code: "WINDOW" }), 404, "not_found", "rate_plan_not_found")
    }))

  it.effect("codes are unique per plan among live codes, case-insensitively (409 promo_code_exists)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const other = yield* createPlan(api)
      const first = yield* createCode(api, plan, { code: "EARLY" })
      expectError(yield* api.post(`/rate-plans/${plan}/promo-codes`, { code: "early" }), 409, "conflict", "promo_code_exists")
      yield* expectFailure(createCode(api, plan, { code: "EARLY" }), PromoCodeExists)
      // The same text on another plan is another code.
      yield* createCode(api, other, { code: "Early" })
      // A deleted code frees its text.
      expect(yield* deleteCode(api, first.promo_code_id)).toEqual({ promo_code_id: first.promo_code_id, deleted: true })
      const again = yield* createCode(api, plan, { code: "early" })
      expect(again.promo_code_id).not.toBe(first.promo_code_id)
    }))

  it.effect("concurrent creates of the same code: exactly one 201, the rest 409 promo_code_exists", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const results = yield* Effect.all(
        Array.from({ length: 10 }, (_, i) => Effect.result(createCode(api, plan, { code: i % 2 === 0 ? "flash" : "FLASH" }))),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Result.isSuccess)).toHaveLength(1)
      for (const result of results) if (Result.isFailure(result)) expect(result.failure).toBeInstanceOf(PromoCodeExists)
      const list = yield* api.client.promoCodes.list({ params: { id: plan } })
      expect(list["data"]).toHaveLength(1)
    }))

  it.effect("GET /rate-plans/{id}/promo-codes lists live codes by code", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      expect(yield* api.client.promoCodes.list({ params: { id: plan } })).toEqual({ data: [] })
      yield* createCode(api, plan, { code: "zed" })
      yield* createCode(api, plan, { code: "ALPHA" })
      const gone = yield* createCode(api, plan, { code: "beta" })
      yield* createCode(api, plan, { code: "Mid" })
      expect(yield* deleteCode(api, gone.promo_code_id)).toEqual({ promo_code_id: gone.promo_code_id, deleted: true })
      const list = yield* api.client.promoCodes.list({ params: { id: plan } })
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
      // The exact wire of the answer.
      const res = yield* api.patch(`/promo-codes/${id}`, { max_per_guest: 2, is_active: false, valid_to: "2026-06-30" })
      expectStatus(res, 200)
      expect(res.json()).toEqual({ promo_code_id: id, updated: true })
      expect(yield* api.client.promoCodes.get({ params: { id: id } })).toMatchObject({
        code: "SPRING",
        valid_from: "2026-03-01",
        valid_to: "2026-06-30",
        max_redemptions: 10,
        max_per_guest: 2,
        is_active: false
      })
      yield* updateCode(api, id, { max_redemptions: null, valid_from: null, is_active: true })
      expect(yield* api.client.promoCodes.get({ params: { id: id } })).toMatchObject({
        valid_from: null,
        max_redemptions: null,
        is_active: true
      })
      // The code is refused whatever its value (the typed client would not send it), as are malformed fields.
      expectInvalid(yield* api.patch(`/promo-codes/${id}`, { code: "SUMMER" }), "code")
      expectInvalid(yield* api.patch(`/promo-codes/${id}`, { code: "SPRING" }), "code")
      yield* invalid(updateCode(api, id, { valid_from: "2026-07-01" }), "valid_to")
      yield* invalid(updateCode(api, id, { valid_from: "2026-02-02", valid_to: "2026-02-01" }), "valid_to")
      expectInvalid(yield* api.patch(`/promo-codes/${id}`, { max_redemptions: 0 }), "max_redemptions")
      expectInvalid(yield* api.patch(`/promo-codes/${id}`, { max_per_guest: 1.5 }), "max_per_guest")
      expectInvalid(yield* api.patch(`/promo-codes/${id}`, { is_active: null }), "is_active")
      yield* invalid(updateCode(api, missingId, { valid_from: "2026-02-02", valid_to: "2026-02-01" }), "valid_to")
      yield* expectFailure(updateCode(api, missingId, { is_active: false }), PromoCodeNotFound)
      // A one-day window is fine.
      yield* updateCode(api, id, { valid_from: "2026-06-30" })
      expect(yield* api.client.promoCodes.get({ params: { id: id } })).toMatchObject({ code: "SPRING", valid_from: "2026-06-30" })
    }))

  it.effect("DELETE answers { promo_code_id, deleted: true }; the code is gone from reads", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const { promo_code_id: id } = yield* createCode(api, plan, { code: "GONE" })
      // The exact wire of the answer.
      const res = yield* api.delete(`/promo-codes/${id}`)
      expectStatus(res, 200)
      expect(res.json()).toEqual({ promo_code_id: id, deleted: true })
      yield* expectFailure(api.client.promoCodes.get({ params: { id } }), PromoCodeNotFound)
      yield* expectFailure(updateCode(api, id, { is_active: false }), PromoCodeNotFound)
      yield* expectFailure(deleteCode(api, id), PromoCodeNotFound)
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      expectError(yield* api.get("/promo-codes/nope"), 404, "not_found", "promo_code_not_found")
      expect(yield* api.client.promoCodes.list({ params: { id: plan } })).toEqual({ data: [] })
      // A deleted plan takes its codes with it.
      const { promo_code_id: kept } = yield* createCode(api, plan, { code: "KEPT" })
      expect(yield* api.client.ratePlanWrites.delete({ headers: {}, params: { id: plan } })).toEqual({ rate_plan_id: plan, deleted: true })
      yield* expectFailure(api.client.promoCodes.get({ params: { id: kept } }), PromoCodeNotFound)
      yield* expectFailure(api.client.promoCodes.list({ params: { id: plan } }), RatePlanNotFound)
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
      expect(yield* api.client.promoCodes.get({ params: { id: id } })).toMatchObject({ times_redeemed: 5 })
      const list = yield* api.client.promoCodes.list({ params: { id: plan } })
      const byCode = new Map(list.data.map((c) => [c.code, c.times_redeemed]))
      expect(byCode.get("COUNTED")).toBe(5)
      expect(byCode.get("OTHER")).toBe(1)
      // Deleting a code does not touch the reservations booked with it.
      expect(yield* deleteCode(api, id)).toEqual({ promo_code_id: id, deleted: true })
      const rows = yield* api.sql<{ count: number }>`SELECT count(*)::int AS count FROM reservations WHERE promo_code_id = ${id}`
      expect(rows[0]?.count).toBe(7)
    }))

  it.effect("another property's codes and plans are missing ones", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const { promo_code_id: id } = yield* createCode(api, plan, { code: "MINE" })
      const other = yield* api.importProperty()
      const theirs = yield* api.clientFor(yield* api.createKey({ propertyId: other.property_id }))
      yield* expectFailure(theirs.promoCodes.get({ params: { id } }), PromoCodeNotFound)
      yield* expectFailure(theirs.promoCodes.update({ headers: {}, params: { id }, payload: { is_active: false } }), PromoCodeNotFound)
      yield* expectFailure(theirs.promoCodes.delete({ headers: {}, params: { id } }), PromoCodeNotFound)
      yield* expectFailure(theirs.promoCodes.list({ params: { id: plan } }), RatePlanNotFound)
      yield* expectFailure(theirs.promoCodes.create({ headers: {}, params: { id: plan }, payload: { code: "THEIRS" } }), RatePlanNotFound)
      expect(yield* api.client.promoCodes.get({ params: { id: id } })).toMatchObject({ code: "MINE", is_active: true })
    }))

  it.effect("reads need rates:read, writes rates:write (403 insufficient_scope)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const { promo_code_id: id } = yield* createCode(api, plan, { code: "SCOPED" })
      const reader = yield* api.clientFor(yield* api.createKey({ scopes: ["rates:read"] }))
      const writerKey = yield* api.createKey({ scopes: ["rates:write"] })
      const writer = yield* api.clientFor(writerKey)
      expect((yield* reader.promoCodes.list({ params: { id: plan } })).data.map((c) => c.id)).toEqual([id])
      expect(yield* reader.promoCodes.get({ params: { id } })).toMatchObject({ id, code: "SCOPED" })
      const denied = <A, E, R>(call: Effect.Effect<A, E, R>, scope: string) =>
        Effect.map(expectFailure(call, InsufficientScope), (error) => expect(error.message).toContain(scope))
      yield* denied(writer.promoCodes.list({ params: { id: plan } }), "rates:read")
      yield* denied(writer.promoCodes.get({ params: { id } }), "rates:read")
      yield* denied(reader.promoCodes.create({ headers: {}, params: { id: plan }, payload: { code: "NOPE" } }), "rates:write")
      yield* denied(reader.promoCodes.update({ headers: {}, params: { id }, payload: { is_active: false } }), "rates:write")
      yield* denied(reader.promoCodes.delete({ headers: {}, params: { id } }), "rates:write")
      expect((yield* writer.promoCodes.create({ headers: {}, params: { id: plan }, payload: { code: "YES" } })).code).toBe("YES")
      expect(yield* writer.promoCodes.update({ headers: {}, params: { id }, payload: { is_active: false } })).toEqual({
        promo_code_id: id,
        updated: true
      })
      expect(yield* writer.promoCodes.delete({ headers: {}, params: { id } })).toEqual({ promo_code_id: id, deleted: true })
    }))
})
