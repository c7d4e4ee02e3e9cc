import { expect, layer } from "@effect/vitest"
import { InsufficientScope, IntervalNotFound, IntervalOverlap, InvalidParameters, RatePlanNotFound, type Rates } from "@hotel/domain"
import { IntervalCreated } from "@hotel/api/rates/Api"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { bodyAs, expectFailure } from "../utils/client.js"
import { createPlan, expectError, expectInvalid, expectStatus, missingId } from "../utils/rateManagement.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"

const createInterval = (api: TestApiService, planId: string, body: Omit<Rates.Interval.IntervalCreate, "name"> & { readonly name?: string }) =>
  api.client.intervals.create({ headers: {}, params: { id: planId }, payload: { name: "Season", ...body } }).pipe(
    Effect.map((created) => created.interval_id)
  )

/** A well-formed request the rules refuse: 400 invalid_parameters naming `param`, decoded by the typed client. */
const invalid = <A, E, R>(call: Effect.Effect<A, E, R>, param: string) => expectFailure(call, InvalidParameters, param)

const derivedPlan = (api: TestApiService) =>
  createPlan(api, {
    name: "Derived",
    derived_from_id: api.property.rate_plans["BAR-DBL"],
    derivation_type: "percent",
    derivation_value: "-10"
  })

layer(TestApiLive, { excludeTestServices: true })("seasonal intervals", (it) => {
  it.effect("POST creates (201 { interval_id }); GET /intervals/{id} shows the full object with defaults", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const res = yield* api.post(`/rate-plans/${plan}/intervals`, {
        name: "Summer",
        start_date: "2026-07-01",
        end_date: "2026-09-01"
      })
      // The exact wire: 201 and only the id.
      expectStatus(res, 201)
      expect(Object.keys(res.json())).toEqual(["interval_id"])
      const { interval_id } = bodyAs(res, IntervalCreated)
      const interval = yield* api.client.intervals.get({ params: { id: interval_id } })
      expect(interval).toMatchObject({
        id: interval_id,
        rate_plan_id: plan,
        name: "Summer",
        start_date: "2026-07-01",
        end_date: "2026-09-01",
        price_mon: null,
        price_tue: null,
        price_wed: null,
        price_thu: null,
        price_fri: null,
        price_sat: null,
        price_sun: null,
        min_stay: null,
        max_stay: null,
        closed_to_arrival: false,
        closed_to_departure: false,
        stop_sell: false,
        extra_guest_charge: "0.00",
        single_guest_discount: "0.00",
        currency: "EUR"
      })
      expect(typeof interval["created_at"]).toBe("string")
    }))

  it.effect("every field of 2.3 is stored; money in the plan currency's minor units", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = api.property.rate_plans["USD-DBL"]
      const id = yield* createInterval(api, plan, {
        name: "Festival",
        start_date: "2026-08-01",
        end_date: "2026-08-08",
        price_mon: "150",
        price_tue: "150.5",
        price_wed: "151.00",
        price_thu: "152",
        price_fri: "180",
        price_sat: "190",
        price_sun: null,
        min_stay: 2,
        max_stay: 7,
        closed_to_arrival: true,
        closed_to_departure: true,
        stop_sell: true,
        extra_guest_charge: "35",
        single_guest_discount: "10"
      })
      expect(yield* api.client.intervals.get({ params: { id: id } })).toMatchObject({
        rate_plan_id: plan,
        price_mon: "150.00",
        price_tue: "150.50",
        price_wed: "151.00",
        price_thu: "152.00",
        price_fri: "180.00",
        price_sat: "190.00",
        price_sun: null,
        min_stay: 2,
        max_stay: 7,
        closed_to_arrival: true,
        closed_to_departure: true,
        stop_sell: true,
        extra_guest_charge: "35.00",
        single_guest_discount: "10.00",
        currency: "USD"
      })
      // On a plan with a percent single-guest discount, the interval's override is a percentage too.
      const percentPlan = yield* createPlan(api, { single_guest_discount_type: "percent", single_guest_discount: "5" })
      const pct = yield* createInterval(api, percentPlan, {
        start_date: "2026-01-01",
        end_date: "2026-02-01",
        single_guest_discount: "12.5"
      })
      expect(yield* api.client.intervals.get({ params: { id: pct } })).toMatchObject({ single_guest_discount: "12.50" })
      expect(yield* api.client.ratePlanReads.get({ params: { id: percentPlan } })).toMatchObject({ single_guest_discount: "5.00" })
      yield* invalid(
        createInterval(api, percentPlan, { start_date: "2026-03-01", end_date: "2026-03-02", single_guest_discount: "100.01" }),
        "single_guest_discount"
      )
    }))

  it.effect("field validation is 400 invalid_parameters naming the field", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const valid = { name: "S", start_date: "2026-03-01", end_date: "2026-03-05" }
      // Malformed bodies (which the typed client would not send) on the wire; well-formed ones the rules refuse
      // through the client.
      const post = (body: Record<string, unknown>) => api.post(`/rate-plans/${plan}/intervals`, body)
      const refused = (body: Partial<Rates.Interval.IntervalCreate>, param: string) =>
        invalid(api.client.intervals.create({ headers: {}, params: { id: plan }, payload: { ...valid, ...body } }), param)
      expectInvalid(yield* post({ start_date: "2026-03-01", end_date: "2026-03-05" }), "name")
      expectInvalid(yield* post({ ...valid, name: "" }), "name")
      expectInvalid(yield* post({ name: "S", end_date: "2026-03-05" }), "start_date")
      expectInvalid(yield* post({ name: "S", start_date: "2026-03-01" }), "end_date")
      expectInvalid(yield* post({ ...valid, start_date: "01/03/2026" }), "start_date")
      expectInvalid(yield* post({ ...valid, end_date: "2026-02-29" }), "end_date")
      yield* refused({ end_date: "2026-03-01" }, "end_date")
      yield* refused({ end_date: "2026-02-20" }, "end_date")
      expectInvalid(yield* post({ ...valid, price_mon: 120 }), "price_mon")
      yield* refused({ price_tue: "120.001" }, "price_tue")
      yield* refused({ price_sun: "-1" }, "price_sun")
      expectInvalid(yield* post({ ...valid, min_stay: 0 }), "min_stay")
      expectInvalid(yield* post({ ...valid, max_stay: 2.5 }), "max_stay")
      yield* refused({ min_stay: 4, max_stay: 3 }, "max_stay")
      expectInvalid(yield* post({ ...valid, closed_to_arrival: "yes" }), "closed_to_arrival")
      expectInvalid(yield* post({ ...valid, closed_to_departure: null }), "closed_to_departure")
      expectInvalid(yield* post({ ...valid, stop_sell: 0 }), "stop_sell")
      yield* refused({ extra_guest_charge: "-5" }, "extra_guest_charge")
      yield* refused({ single_guest_discount: "1.999" }, "single_guest_discount")
      // Field validation comes before the plan lookup.
      yield* invalid(
        api.client.intervals.create({ headers: {}, params: { id: missingId }, payload: { ...valid, end_date: "2026-03-01" } }),
        "end_date"
      )
      yield* expectFailure(api.client.intervals.create({ headers: {}, params: { id: missingId }, payload: valid }), RatePlanNotFound)
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      expectError(yield* api.post("/rate-plans/nope/intervals", valid), 404, "not_found", "rate_plan_not_found")
      const list = yield* api.client.intervals.list({ params: { id: plan } })
      expect(list).toEqual({ data: [] })
    }))

  it.effect("intervals of a plan must not share a night: 409 interval_overlap; back-to-back is fine", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const other = yield* createPlan(api)
      const june = yield* createInterval(api, plan, { name: "June", start_date: "2026-06-01", end_date: "2026-06-10" })
      const overlap = (start_date: string, end_date: string) =>
        expectFailure(createInterval(api, plan, { name: "X", start_date, end_date }), IntervalOverlap)
      // The refusal on the wire once; the typed client checks the others.
      expectError(
        yield* api.post(`/rate-plans/${plan}/intervals`, { name: "X", start_date: "2026-06-09", end_date: "2026-06-12" }),
        409,
        "conflict",
        "interval_overlap"
      )
      yield* overlap("2026-05-25", "2026-06-02")
      yield* overlap("2026-05-01", "2026-07-01")
      yield* overlap("2026-06-03", "2026-06-04")
      yield* overlap("2026-06-01", "2026-06-10")
      yield* createInterval(api, plan, { name: "After", start_date: "2026-06-10", end_date: "2026-06-15" })
      yield* createInterval(api, plan, { name: "Before", start_date: "2026-05-20", end_date: "2026-06-01" })
      yield* createInterval(api, plan, { name: "New year", start_date: "2026-12-31", end_date: "2027-01-01" })
      // Another plan's intervals do not count.
      yield* createInterval(api, other, { name: "June", start_date: "2026-06-01", end_date: "2026-06-10" })
      const list = yield* api.client.intervals.list({ params: { id: plan } })
      const data = list.data
      expect(data.map((i) => i.name)).toEqual(["Before", "June", "After", "New year"])
      expect(data[1]?.id).toBe(june)
    }))

  it.effect("10 concurrent overlapping POSTs: exactly one 201, the rest 409 interval_overlap", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const results = yield* Effect.all(
        Array.from({ length: 10 }, (_, i) =>
          Effect.result(createInterval(api, plan, {
            name: `Race ${i}`,
            start_date: `2026-10-${String(1 + i).padStart(2, "0")}`,
            end_date: "2026-10-20"
          }))),
        { concurrency: "unbounded" }
      )
      const created = results.filter(Result.isSuccess)
      expect(created).toHaveLength(1)
      for (const result of results) if (Result.isFailure(result)) expect(result.failure).toBeInstanceOf(IntervalOverlap)
      const list = yield* api.client.intervals.list({ params: { id: plan } })
      expect(list["data"]).toHaveLength(1)
    }))

  it.effect("PATCH re-checks the rules after moving dates, also under concurrency", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const a = yield* createInterval(api, plan, { name: "A", start_date: "2026-01-01", end_date: "2026-01-10", price_mon: "90" })
      const b = yield* createInterval(api, plan, { name: "B", start_date: "2026-02-01", end_date: "2026-02-10" })
      const res = yield* api.patch(`/intervals/${a}`, { name: "A2", price_mon: null, price_fri: "110", min_stay: 2 })
      // The exact wire of the answer.
      expectStatus(res, 200)
      expect(res.json()).toEqual({ interval_id: a, updated: true })
      expect(yield* api.client.intervals.get({ params: { id: a } })).toMatchObject({
        name: "A2",
        start_date: "2026-01-01",
        end_date: "2026-01-10",
        price_mon: null,
        price_fri: "110.00",
        min_stay: 2
      })
      // Moving within its own range is not an overlap with itself.
      const update = (id: string, payload: Rates.Interval.IntervalPatch) =>
        api.client.intervals.update({ headers: {}, params: { id }, payload })
      yield* update(a, { start_date: "2026-01-05", end_date: "2026-01-12" })
      yield* expectFailure(update(a, { end_date: "2026-02-02" }), IntervalOverlap)
      yield* expectFailure(update(b, { start_date: "2026-01-11", end_date: "2026-01-20" }), IntervalOverlap)
      yield* invalid(update(a, { end_date: "2026-01-05" }), "end_date")
      yield* invalid(update(a, { start_date: "2026-01-13" }), "end_date")
      yield* invalid(update(a, { start_date: "2026-03-02", end_date: "2026-03-01" }), "end_date")
      yield* invalid(update(a, { max_stay: 1 }), "max_stay")
      yield* invalid(update(a, { price_sat: "1.001" }), "price_sat")
      // A null name is malformed: the typed client would not send it.
      expectInvalid(yield* api.patch(`/intervals/${a}`, { name: null }), "name")
      yield* invalid(update(missingId, { start_date: "2026-03-02", end_date: "2026-03-01" }), "end_date")
      expect(yield* api.client.intervals.get({ params: { id: a } })).toMatchObject({ start_date: "2026-01-05", end_date: "2026-01-12" })
      // Two intervals moved into the same nights at the same time: one wins.
      const [ra, rb] = yield* Effect.all([
        Effect.result(update(a, { start_date: "2026-04-01", end_date: "2026-04-10" })),
        Effect.result(update(b, { start_date: "2026-04-05", end_date: "2026-04-15" }))
      ], { concurrency: "unbounded" })
      expect([ra._tag, rb._tag].sort()).toEqual(["Failure", "Success"])
      expect(Result.isFailure(ra) ? ra.failure : Result.isFailure(rb) ? rb.failure : undefined).toBeInstanceOf(IntervalOverlap)
    }))

  it.effect("a derived plan's intervals carry no weekday prices (400 naming the price)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* derivedPlan(api)
      const base = { name: "Rules", start_date: "2026-05-01", end_date: "2026-05-10" }
      yield* invalid(createInterval(api, plan, { ...base, price_mon: "100" }), "price_mon")
      yield* invalid(createInterval(api, plan, { ...base, price_sun: "100" }), "price_sun")
      const id = yield* createInterval(api, plan, {
        ...base,
        price_mon: null,
        min_stay: 3,
        stop_sell: true,
        extra_guest_charge: "15"
      })
      expect(yield* api.client.intervals.get({ params: { id: id } })).toMatchObject({ min_stay: 3, stop_sell: true, price_mon: null })
      yield* invalid(api.client.intervals.update({ headers: {}, params: { id }, payload: { price_wed: "80" } }), "price_wed")
      // A plan with priced intervals cannot become derived until they are cleared.
      const standard = yield* createPlan(api)
      const priced = yield* createInterval(api, standard, { ...base, price_tue: "120" })
      const derive = {
        derived_from_id: api.property.rate_plans["BAR-DBL"],
        derivation_type: "fixed",
        derivation_value: "-5"
      } as const
      yield* invalid(api.client.ratePlanWrites.update({ headers: {}, params: { id: standard }, payload: derive }), "derived_from_id")
      yield* api.client.intervals.update({ headers: {}, params: { id: priced }, payload: { price_tue: null } })
      yield* api.client.ratePlanWrites.update({ headers: {}, params: { id: standard }, payload: derive })
    }))

  it.effect("a plan whose intervals carry amounts keeps its currency and discount type until they are cleared", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const base = { name: "Season", start_date: "2026-05-01", end_date: "2026-05-10" }
      const priced = yield* createInterval(api, plan, { ...base, price_wed: "150.45" })
      const patchPlan = (payload: Rates.RatePlan.RatePlanPatch) =>
        api.client.ratePlanWrites.update({ headers: {}, params: { id: plan }, payload })
      const toDollars = { currency: "USD" }
      // "150.45" would silently become dollars
      yield* invalid(patchPlan(toDollars), "currency")
      yield* api.client.intervals.update({ headers: {}, params: { id: priced }, payload: { price_wed: null, extra_guest_charge: "12.45" } })
      yield* invalid(patchPlan(toDollars), "currency")
      yield* api.client.intervals.update({ headers: {}, params: { id: priced }, payload: { extra_guest_charge: "0", single_guest_discount: "30.00" } })
      yield* invalid(patchPlan(toDollars), "currency")
      // a fixed 30.00 would become 30 percent
      yield* invalid(patchPlan({ single_guest_discount_type: "percent" }), "single_guest_discount_type")
      yield* api.client.intervals.update({ headers: {}, params: { id: priced }, payload: { single_guest_discount: "0" } })
      expect(yield* patchPlan(toDollars)).toEqual({ rate_plan_id: plan, updated: true })
      expect(yield* api.client.intervals.get({ params: { id: priced } })).toMatchObject({ currency: "USD", extra_guest_charge: "0.00" })
    }))

  it.effect("DELETE answers { interval_id, deleted: true }; the interval is gone", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const id = yield* createInterval(api, plan, { start_date: "2026-11-01", end_date: "2026-11-05" })
      // The exact wire of the answer.
      const res = yield* api.delete(`/intervals/${id}`)
      expectStatus(res, 200)
      expect(res.json()).toEqual({ interval_id: id, deleted: true })
      yield* expectFailure(api.client.intervals.get({ params: { id } }), IntervalNotFound)
      yield* expectFailure(api.client.intervals.delete({ headers: {}, params: { id } }), IntervalNotFound)
      yield* expectFailure(api.client.intervals.update({ headers: {}, params: { id }, payload: { name: "X" } }), IntervalNotFound)
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      expectError(yield* api.get("/intervals/not-an-id"), 404, "not_found", "interval_not_found")
      // The nights are free again.
      yield* createInterval(api, plan, { start_date: "2026-11-01", end_date: "2026-11-05" })
    }))

  it.effect("intervals of a deleted plan are gone with it", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const id = yield* createInterval(api, plan, { start_date: "2026-11-01", end_date: "2026-11-05" })
      expect(yield* api.client.ratePlanWrites.delete({ headers: {}, params: { id: plan } })).toEqual({ rate_plan_id: plan, deleted: true })
      yield* expectFailure(api.client.intervals.get({ params: { id } }), IntervalNotFound)
      yield* expectFailure(api.client.intervals.update({ headers: {}, params: { id }, payload: { name: "X" } }), IntervalNotFound)
      yield* expectFailure(
        createInterval(api, plan, { name: "X", start_date: "2026-12-01", end_date: "2026-12-02" }),
        RatePlanNotFound
      )
    }))

  it.effect("another property's intervals and plans are missing ones", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const other = yield* api.importProperty()
      const otherKey = yield* api.createKey({ propertyId: other.property_id })
      const plan = yield* createPlan(api)
      const id = yield* createInterval(api, plan, { start_date: "2026-11-01", end_date: "2026-11-05" })
      const theirs = yield* api.clientFor(otherKey)
      yield* expectFailure(theirs.intervals.get({ params: { id } }), IntervalNotFound)
      yield* expectFailure(theirs.intervals.update({ headers: {}, params: { id }, payload: { name: "X" } }), IntervalNotFound)
      yield* expectFailure(theirs.intervals.delete({ headers: {}, params: { id } }), IntervalNotFound)
      yield* expectFailure(theirs.intervals.list({ params: { id: plan } }), RatePlanNotFound)
      yield* expectFailure(
        theirs.intervals.create({ headers: {}, params: { id: plan }, payload: { name: "X", start_date: "2026-12-01", end_date: "2026-12-02" } }),
        RatePlanNotFound
      )
      expect(yield* api.client.intervals.get({ params: { id: id } })).toMatchObject({ name: "Season" })
    }))

  it.effect("reads need rates:read, writes rates:write (403 insufficient_scope)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const id = yield* createInterval(api, plan, { start_date: "2026-11-01", end_date: "2026-11-05" })
      const clientWith = (scopes: Parameters<typeof api.createKey>[0]) =>
        Effect.flatMap(api.createKey(scopes), (key) => api.clientFor(key))
      const reader = yield* clientWith({ scopes: ["rates:read"] })
      const writerKey = yield* api.createKey({ scopes: ["rates:write"] })
      const writer = yield* api.clientFor(writerKey)
      const catalog = yield* clientWith({ scopes: ["catalog:read"] })
      expect((yield* reader.intervals.list({ params: { id: plan } })).data.map((i) => i.id)).toEqual([id])
      expect(yield* reader.intervals.get({ params: { id } })).toMatchObject({ id, rate_plan_id: plan })
      const denied = <A, E, R>(call: Effect.Effect<A, E, R>, scope: string) =>
        Effect.map(expectFailure(call, InsufficientScope), (error) => expect(error.message).toContain(scope))
      yield* denied(writer.intervals.list({ params: { id: plan } }), "rates:read")
      yield* denied(writer.intervals.get({ params: { id } }), "rates:read")
      yield* denied(catalog.intervals.get({ params: { id } }), "rates:read")
      const body = { name: "X", start_date: "2026-12-01", end_date: "2026-12-02" }
      yield* denied(reader.intervals.create({ headers: {}, params: { id: plan }, payload: body }), "rates:write")
      yield* denied(reader.intervals.update({ headers: {}, params: { id }, payload: { name: "Y" } }), "rates:write")
      yield* denied(reader.intervals.delete({ headers: {}, params: { id } }), "rates:write")
      expect(typeof (yield* writer.intervals.create({ headers: {}, params: { id: plan }, payload: body })).interval_id).toBe("string")
      expect(yield* writer.intervals.update({ headers: {}, params: { id }, payload: { name: "Y" } })).toEqual({
        interval_id: id,
        updated: true
      })
      expect(yield* writer.intervals.delete({ headers: {}, params: { id } })).toEqual({ interval_id: id, deleted: true })
    }))
})
