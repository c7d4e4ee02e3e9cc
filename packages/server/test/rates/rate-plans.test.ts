import { expect, layer } from "@effect/vitest"
import {
  DefaultRatePlanProtected,
  InsufficientScope,
  InvalidParameters,
  RatePlanNotFound,
  type Rates,
  RoomTypeNotFound
} from "@hotel/domain"
import { RatePlanCreated } from "@hotel/api/rates/Api"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { bodyAs, expectFailure } from "../utils/client.js"
import { propertyFile } from "../utils/fixtures.js"
import {
  createPlan,
  expectError,
  expectInvalid,
  expectStatus,
  missingId
} from "../utils/rateManagement.js"
import { TestApi, type TestApiService } from "../utils/TestServer.js"
import { TestApiLive } from "../utils/TestServer.js"

/** A well-formed request the rules refuse: 400 invalid_parameters naming `param`, decoded by the typed client. */
const invalid = <A, E, R>(call: Effect.Effect<A, E, R>, param: string) => expectFailure(call, InvalidParameters, param)

const updatePlan = (api: TestApiService, id: string, payload: Rates.RatePlan.RatePlanPatch) =>
  api.client.ratePlanWrites.update({ headers: {}, params: { id }, payload })

const deletePlan = (api: TestApiService, id: string) => api.client.ratePlanWrites.delete({ headers: {}, params: { id } })

layer(TestApiLive, { excludeTestServices: true })("rate plan writes", (it) => {
  it.effect("POST /rate-plans creates a plan with the defaults of 2.2 (201 { rate_plan_id })", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const res = yield* api.post("/rate-plans", {
        room_type_id: api.property.room_types["DBL"],
        name: "Minimal",
        base_price: "99.5"
      })
      // The exact wire: 201 and only the id.
      expectStatus(res, 201)
      expect(Object.keys(res.json())).toEqual(["rate_plan_id"])
      const { rate_plan_id } = bodyAs(res, RatePlanCreated)
      const plan = yield* api.client.ratePlanReads.get({ params: { id: rate_plan_id } })
      expect(plan).toMatchObject({
        id: rate_plan_id,
        room_type_id: api.property.room_types["DBL"],
        name: "Minimal",
        public_name: null,
        description: null,
        image_url: null,
        base_price: "99.50",
        currency: "EUR",
        extra_guest_charge: "0.00",
        single_guest_discount: "0.00",
        single_guest_discount_type: "fixed",
        min_los: null,
        max_los: null,
        booking_window_start: null,
        booking_window_end: null,
        stay_window_start: null,
        stay_window_end: null,
        active_for_booking_engine: false,
        active_for_channels: false,
        kind: "standard",
        derived_from_id: null,
        derivation_type: null,
        derivation_value: null,
        is_active: true,
        is_default: false,
        requires_promo_code: false,
        cancellation_policy: null
      })
      const list = yield* api.client.ratePlanReads.list()
      expect(list.data.map((p) => p.id)).toContain(rate_plan_id)
    }))

  it.effect("POST /rate-plans stores every field of 2.2, requires_promo_code and cancellation_policy", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const id = yield* createPlan(api, {
        name: "Everything",
        base_price: "130",
        currency: "USD",
        public_name: "Flexible rate",
        description: "Free cancellation",
        image_url: "https://example.com/rate.png",
        extra_guest_charge: "25.5",
        single_guest_discount: "12.50",
        single_guest_discount_type: "percent",
        min_los: 2,
        max_los: 2,
        booking_window_start: "2026-01-01",
        booking_window_end: "2026-01-01",
        stay_window_start: "2026-02-01",
        stay_window_end: "2026-12-31",
        active_for_booking_engine: true,
        active_for_channels: true,
        kind: "standard",
        requires_promo_code: true,
        cancellation_policy: [
          { days_before_arrival: 0, refund_percent: 0 },
          { days_before_arrival: 14, refund_percent: 100 }
        ]
      })
      const plan = yield* api.client.ratePlanReads.get({ params: { id: id } })
      expect(plan).toMatchObject({
        name: "Everything",
        base_price: "130.00",
        currency: "USD",
        public_name: "Flexible rate",
        description: "Free cancellation",
        image_url: "https://example.com/rate.png",
        extra_guest_charge: "25.50",
        single_guest_discount: "12.50",
        single_guest_discount_type: "percent",
        min_los: 2,
        max_los: 2,
        booking_window_start: "2026-01-01",
        booking_window_end: "2026-01-01",
        stay_window_start: "2026-02-01",
        stay_window_end: "2026-12-31",
        active_for_booking_engine: true,
        active_for_channels: true,
        requires_promo_code: true,
        cancellation_policy: [
          { days_before_arrival: 14, refund_percent: 100 },
          { days_before_arrival: 0, refund_percent: 0 }
        ]
      })
    }))

  it.effect("required fields and field formats are 400 invalid_parameters naming the field", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const roomType = api.property.room_types["DBL"]
      const valid = { room_type_id: roomType, name: "Plan", base_price: "100.00" }
      // Malformed bodies (which the typed client would not send) on the wire; well-formed ones through the client.
      const post = (body: Record<string, unknown>) => api.post("/rate-plans", body)
      const create = (body: Partial<Rates.RatePlan.RatePlanCreate>) =>
        api.client.ratePlanWrites.create({ headers: {}, payload: { ...valid, ...body } })
      const created = (body: Partial<Rates.RatePlan.RatePlanCreate>) =>
        Effect.flatMap(create(body), ({ rate_plan_id }) => api.client.ratePlanReads.get({ params: { id: rate_plan_id } }))
      const refused = (body: Partial<Rates.RatePlan.RatePlanCreate>, param: string) => invalid(create(body), param)
      expectInvalid(yield* post({ name: "Plan", base_price: "100.00" }), "room_type_id")
      expectInvalid(yield* post({ room_type_id: roomType, base_price: "100.00" }), "name")
      expectInvalid(yield* post({ room_type_id: roomType, name: "Plan" }), "base_price")
      expectInvalid(yield* post({ ...valid, room_type_id: "not-a-uuid" }), "room_type_id")
      expectInvalid(yield* post({ ...valid, name: "" }), "name")
      expectInvalid(yield* post({ ...valid, name: "x".repeat(101) }), "name")
      expect((yield* created({ name: "x".repeat(100) })).name).toBe("x".repeat(100))
      // characters, not UTF-16 units: 100 emoji are 100 characters
      expect((yield* created({ name: "\u{1F600}".repeat(100) })).name).toBe("\u{1F600}".repeat(100))
      expectInvalid(yield* post({ ...valid, name: "\u{1F600}".repeat(101) }), "name")
      expectInvalid(yield* post({ ...valid, base_price: 100.5 }), "base_price")
      expectInvalid(yield* post({ ...valid, base_price: "12,50" }), "base_price")
      yield* refused({ base_price: "100.001" }, "base_price")
      yield* refused({ base_price: "-1.00" }, "base_price")
      yield* refused({ base_price: "1000000000.01" }, "base_price")
      expectInvalid(yield* post({ ...valid, currency: "eur" }), "currency")
      yield* refused({ currency: "GBP" }, "currency")
      expectInvalid(yield* post({ ...valid, public_name: 5 }), "public_name")
      expectInvalid(yield* post({ ...valid, image_url: "not a url" }), "image_url")
      expectInvalid(yield* post({ ...valid, image_url: "/relative.png" }), "image_url")
      yield* refused({ extra_guest_charge: "-5.00" }, "extra_guest_charge")
      yield* refused({ extra_guest_charge: "5.555" }, "extra_guest_charge")
      yield* refused({ single_guest_discount: "10.001" }, "single_guest_discount")
      yield* refused({ single_guest_discount: "100.5", single_guest_discount_type: "percent" }, "single_guest_discount")
      expectInvalid(yield* post({ ...valid, single_guest_discount_type: "relative" }), "single_guest_discount_type")
      expectInvalid(yield* post({ ...valid, min_los: 0 }), "min_los")
      expectInvalid(yield* post({ ...valid, min_los: 1.5 }), "min_los")
      expectInvalid(yield* post({ ...valid, max_los: -1 }), "max_los")
      yield* refused({ min_los: 3, max_los: 2 }, "max_los")
      expectInvalid(yield* post({ ...valid, booking_window_start: "2026-02-30" }), "booking_window_start")
      yield* refused({ booking_window_start: "2026-03-02", booking_window_end: "2026-03-01" }, "booking_window_end")
      yield* refused({ stay_window_start: "2026-03-02", stay_window_end: "2026-03-01" }, "stay_window_end")
      expectInvalid(yield* post({ ...valid, active_for_booking_engine: "yes" }), "active_for_booking_engine")
      expectInvalid(yield* post({ ...valid, active_for_channels: 1 }), "active_for_channels")
      expectInvalid(yield* post({ ...valid, kind: "special" }), "kind")
      expectInvalid(yield* post({ ...valid, requires_promo_code: "true" }), "requires_promo_code")
      expectInvalid(yield* post({ ...valid, cancellation_policy: "strict" }), "cancellation_policy")
      expectInvalid(
        yield* post({ ...valid, cancellation_policy: [{ days_before_arrival: 3, refund_percent: 150 }] }),
        "cancellation_policy[0].refund_percent"
      )
      yield* refused(
        { cancellation_policy: [{ days_before_arrival: 3, refund_percent: 50 }, { days_before_arrival: 3, refund_percent: 0 }] },
        "cancellation_policy[1].days_before_arrival"
      )
    }))

  it.effect("money uses the plan currency's minor units (JPY has none)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const file = propertyFile(`JPY${Date.now()}`)
      const other = yield* api.importProperty({
        ...file,
        currencies: [...file.currencies, { currency: "JPY", rate_to_base: "0.006" }]
      })
      const theirs = yield* api.clientFor(yield* api.createKey({ propertyId: other.property_id }))
      const body = { room_type_id: other.room_types["DBL"], name: "Yen", currency: "JPY" }
      yield* invalid(theirs.ratePlanWrites.create({ headers: {}, payload: { ...body, base_price: "15000.50" } }), "base_price")
      yield* invalid(
        theirs.ratePlanWrites.create({ headers: {}, payload: { ...body, base_price: "15000", extra_guest_charge: "1.5" } }),
        "extra_guest_charge"
      )
      const { rate_plan_id: id } = yield* theirs.ratePlanWrites.create({ headers: {}, payload: { ...body, base_price: "15000" } })
      const plan = yield* theirs.ratePlanReads.get({ params: { id } })
      expect(plan).toMatchObject({ base_price: "15000", currency: "JPY" })
    }))

  it.effect("an unknown room type is 404 room_type_not_found, after field validation", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const other = yield* api.importProperty()
      const create = (payload: Rates.RatePlan.RatePlanCreate) => api.client.ratePlanWrites.create({ headers: {}, payload })
      yield* expectFailure(create({ room_type_id: missingId, name: "X", base_price: "1.00" }), RoomTypeNotFound)
      yield* expectFailure(create({ room_type_id: other.room_types["DBL"], name: "X", base_price: "1.00" }), RoomTypeNotFound)
      yield* invalid(create({ room_type_id: missingId, name: "X", base_price: "1.001" }), "base_price")
      yield* invalid(create({ room_type_id: missingId, name: "X", base_price: "1", derived_from_id: missingId }), "derivation_type")
    }))

  it.effect("a derived plan needs derivation_type and derivation_value, naming the missing one", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const parent = api.property.rate_plans["BAR-DBL"]
      const promotion = {
        room_type_id: api.property.room_types["DBL"],
        name: "Promo",
        base_price: "0",
        kind: "promotion"
      } as const
      // Malformed bodies (which the typed client would not send) on the wire; well-formed ones through the client.
      const post = (body: Record<string, unknown>) => api.post("/rate-plans", { ...promotion, ...body })
      const create = (body: Partial<Rates.RatePlan.RatePlanCreate>) =>
        api.client.ratePlanWrites.create({ headers: {}, payload: { ...promotion, ...body } })
      yield* invalid(create({ derived_from_id: parent }), "derivation_type")
      yield* invalid(create({ derived_from_id: parent, derivation_value: "-10" }), "derivation_type")
      yield* invalid(create({ derived_from_id: parent, derivation_type: "percent" }), "derivation_value")
      yield* invalid(create({ derived_from_id: parent, derivation_type: "percent", derivation_value: null }), "derivation_value")
      yield* invalid(create({ derivation_type: "percent", derivation_value: "-10" }), "derivation_type")
      yield* invalid(create({ derivation_value: "-10" }), "derivation_value")
      expectInvalid(yield* post({ derived_from_id: parent, derivation_type: "ratio", derivation_value: "1" }), "derivation_type")
      expectInvalid(yield* post({ derived_from_id: parent, derivation_type: "percent", derivation_value: -10 }), "derivation_value")
      yield* invalid(create({ derived_from_id: parent, derivation_type: "percent", derivation_value: "-100.5" }), "derivation_value")
      yield* invalid(create({ derived_from_id: parent, derivation_type: "fixed", derivation_value: "-10.005" }), "derivation_value")
      expectInvalid(yield* post({ derived_from_id: "nope", derivation_type: "fixed", derivation_value: "1" }), "derived_from_id")
      expectError(
        yield* post({ derived_from_id: missingId, derivation_type: "percent", derivation_value: "-10" }),
        404,
        "not_found",
        "rate_plan_not_found"
      )
      const res = yield* create({ derived_from_id: parent, derivation_type: "percent", derivation_value: "-12.5" })
      const promo = yield* api.client.ratePlanReads.get({ params: { id: res.rate_plan_id } })
      expect(promo).toMatchObject({
        kind: "promotion",
        derived_from_id: parent,
        derivation_type: "percent",
        derivation_value: "-12.5",
        currency: "EUR"
      })
      const fixed = yield* create({ derived_from_id: parent, derivation_type: "perPerson", derivation_value: "-5" })
      const perPerson = yield* api.client.ratePlanReads.get({ params: { id: fixed.rate_plan_id } })
      expect(perPerson).toMatchObject({ derivation_type: "perPerson", derivation_value: "-5.00" })
    }))

  it.effect("a derived plan prices its parent's room type in its parent's currency", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const derivation = { derivation_type: "fixed", derivation_value: "-10.00" } as const
      const usdParent = api.property.rate_plans["USD-DBL"]
      // The currency defaults to the parent's.
      const child = yield* createPlan(api, { derived_from_id: usdParent, ...derivation })
      expect(yield* api.client.ratePlanReads.get({ params: { id: child } })).toMatchObject({ currency: "USD", derivation_value: "-10.00" })
      yield* invalid(
        api.client.ratePlanWrites.create({ headers: {},
          payload: {
            room_type_id: api.property.room_types["DBL"],
            name: "Mismatch",
            base_price: "1",
            currency: "EUR",
            derived_from_id: usdParent,
            ...derivation
          }
        }),
        "currency"
      )
      yield* invalid(
        api.client.ratePlanWrites.create({ headers: {},
          payload: {
            room_type_id: api.property.room_types["STE"],
            name: "Mismatch",
            base_price: "1",
            derived_from_id: usdParent,
            ...derivation
          }
        }),
        "room_type_id"
      )
    }))

  it.effect("chains of derivation are allowed; a cycle is 400 derived_from_id", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const derivation = { derivation_type: "percent", derivation_value: "-5" } as const
      const a = yield* createPlan(api, { name: "A" })
      const b = yield* createPlan(api, { name: "B", derived_from_id: a, ...derivation })
      const c = yield* createPlan(api, { name: "C", derived_from_id: b, ...derivation })
      expect(yield* api.client.ratePlanReads.get({ params: { id: c } })).toMatchObject({ derived_from_id: b })
      yield* invalid(updatePlan(api, a, { derived_from_id: c, ...derivation }), "derived_from_id")
      yield* invalid(updatePlan(api, a, { derived_from_id: a, ...derivation }), "derived_from_id")
      yield* invalid(updatePlan(api, b, { derived_from_id: c }), "derived_from_id")
      // Re-parenting without a cycle is fine.
      yield* updatePlan(api, c, { derived_from_id: a })
      expect(yield* api.client.ratePlanReads.get({ params: { id: c } })).toMatchObject({ derived_from_id: a })
      expect(yield* api.client.ratePlanReads.get({ params: { id: a } })).toMatchObject({ derived_from_id: null })
    }))

  it.effect("PATCH changes only the fields sent, null clears, and answers { rate_plan_id, updated: true }", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const id = yield* createPlan(api, {
        name: "Before",
        public_name: "Public",
        min_los: 2,
        booking_window_start: "2026-01-01",
        booking_window_end: "2026-06-30"
      })
      const before = yield* api.client.ratePlanReads.get({ params: { id: id } })
      // The exact wire of the answer.
      const res = yield* api.patch(`/rate-plans/${id}`, {
        name: "After",
        public_name: null,
        base_price: "150",
        booking_window_end: null,
        requires_promo_code: true,
        cancellation_policy: [{ days_before_arrival: 1, refund_percent: 100 }]
      })
      expectStatus(res, 200)
      expect(res.json()).toEqual({ rate_plan_id: id, updated: true })
      const after = yield* api.client.ratePlanReads.get({ params: { id: id } })
      expect(after).toMatchObject({
        name: "After",
        public_name: null,
        base_price: "150.00",
        min_los: 2,
        booking_window_start: "2026-01-01",
        booking_window_end: null,
        requires_promo_code: true,
        cancellation_policy: [{ days_before_arrival: 1, refund_percent: 100 }],
        room_type_id: before["room_type_id"],
        created_at: before["created_at"]
      })
      yield* api.client.ratePlanWrites.update({ headers: {}, params: { id: id }, payload: { cancellation_policy: null, is_active: false } })
      expect(yield* api.client.ratePlanReads.get({ params: { id: id } })).toMatchObject({ cancellation_policy: null, is_active: false })
      yield* api.client.ratePlanWrites.update({ headers: {}, params: { id: id }, payload: {} })
    }))

  it.effect("PATCH validates like POST, on the merged plan, and refuses room_type_id", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const id = yield* createPlan(api, { min_los: 3, single_guest_discount: "30.00", booking_window_start: "2026-05-01" })
      // Malformed bodies (which the typed client would not send: room_type_id at all) on the wire; well-formed
      // ones through the client.
      const patch = (body: Record<string, unknown>) => api.patch(`/rate-plans/${id}`, body)
      const refused = (payload: Rates.RatePlan.RatePlanPatch, param: string) => invalid(updatePlan(api, id, payload), param)
      expectInvalid(yield* patch({ room_type_id: api.property.room_types["DBL"] }), "room_type_id")
      expectInvalid(yield* patch({ room_type_id: api.property.room_types["STE"] }), "room_type_id")
      expectInvalid(yield* patch({ name: "" }), "name")
      expectInvalid(yield* patch({ name: null }), "name")
      yield* refused({ base_price: "1.234" }, "base_price")
      yield* refused({ currency: "GBP" }, "currency")
      expectInvalid(yield* patch({ is_active: "no" }), "is_active")
      yield* refused({ max_los: 2 }, "max_los")
      yield* refused({ booking_window_end: "2026-04-30" }, "booking_window_end")
      yield* refused({ single_guest_discount_type: "percent", single_guest_discount: "101" }, "single_guest_discount")
      yield* refused({ derivation_type: "percent", derivation_value: "-10" }, "derivation_type")
      yield* refused({ derived_from_id: api.property.rate_plans["BAR-DBL"] }, "derivation_type")
      // Validation comes before looking the plan up.
      expectInvalid(yield* api.patch(`/rate-plans/${missingId}`, { name: "" }), "name")
      yield* invalid(updatePlan(api, missingId, { currency: "GBP" }), "currency")
      // Nothing was changed by the refused requests.
      expect(yield* api.client.ratePlanReads.get({ params: { id: id } })).toMatchObject({
        name: "Test plan",
        base_price: "100.00",
        currency: "EUR",
        single_guest_discount_type: "fixed",
        min_los: 3,
        max_los: null,
        derived_from_id: null
      })
      expect(yield* updatePlan(api, id, { currency: "USD", base_price: "110" })).toEqual({ rate_plan_id: id, updated: true })
      expect(yield* api.client.ratePlanReads.get({ params: { id: id } })).toMatchObject({ currency: "USD", base_price: "110.00" })
    }))

  it.effect("PATCH of a derivation: make a plan derived, change it, clear it", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const parent = api.property.rate_plans["BAR-DBL"]
      const id = yield* createPlan(api)
      expect(
        yield* updatePlan(api, id, { derived_from_id: parent, derivation_type: "fixed", derivation_value: "-15", kind: "promotion" })
      ).toEqual({ rate_plan_id: id, updated: true })
      expect(yield* api.client.ratePlanReads.get({ params: { id: id } })).toMatchObject({
        derived_from_id: parent,
        derivation_type: "fixed",
        derivation_value: "-15.00",
        kind: "promotion"
      })
      yield* invalid(updatePlan(api, id, { derivation_value: null }), "derivation_value")
      yield* invalid(updatePlan(api, id, { derivation_type: "percent", derivation_value: "-101" }), "derivation_value")
      yield* invalid(updatePlan(api, id, { currency: "USD" }), "currency")
      yield* updatePlan(api, id, { derivation_type: "percent", derivation_value: "-20" })
      expect(yield* api.client.ratePlanReads.get({ params: { id: id } })).toMatchObject({ derivation_type: "percent", derivation_value: "-20" })
      yield* updatePlan(api, id, { derived_from_id: null })
      expect(yield* api.client.ratePlanReads.get({ params: { id: id } })).toMatchObject({
        derived_from_id: null,
        derivation_type: null,
        derivation_value: null
      })
      yield* expectFailure(
        updatePlan(api, id, { derived_from_id: missingId, derivation_type: "fixed", derivation_value: "1" }),
        RatePlanNotFound
      )
    }))

  it.effect("a parent and its derived plan are read independently of writes to the other", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const parent = yield* createPlan(api, { name: "Parent", base_price: "200.00" })
      const child = yield* createPlan(api, {
        name: "Child",
        base_price: "0",
        derived_from_id: parent,
        derivation_type: "percent",
        derivation_value: "-10"
      })
      const childBefore = yield* api.client.ratePlanReads.get({ params: { id: child } })
      yield* api.client.ratePlanWrites.update({ headers: {}, params: { id: parent }, payload: { base_price: "250.00", name: "Parent 2" } })
      const childAfter = yield* api.client.ratePlanReads.get({ params: { id: child } })
      expect(childAfter).toEqual(childBefore)
      const parentBefore = yield* api.client.ratePlanReads.get({ params: { id: parent } })
      expect(parentBefore).toMatchObject({ base_price: "250.00", name: "Parent 2" })
      yield* api.client.ratePlanWrites.update({ headers: {}, params: { id: child }, payload: { derivation_value: "-25", name: "Child 2" } })
      expect(yield* api.client.ratePlanReads.get({ params: { id: parent } })).toEqual(parentBefore)
      expect(yield* api.client.ratePlanReads.get({ params: { id: child } })).toMatchObject({
        derived_from_id: parent,
        derivation_value: "-25",
        name: "Child 2"
      })
      // A parent with a derived plan cannot move to another currency (its children price in it).
      yield* invalid(updatePlan(api, parent, { currency: "USD" }), "currency")
    }))

  it.effect("the default plan cannot be deleted or deactivated: 403 default_rate_plan_protected", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const bar = api.property.default_rate_plan_id
      expectError(yield* api.delete(`/rate-plans/${bar}`), 403, "permission", "default_rate_plan_protected")
      yield* expectFailure(updatePlan(api, bar, { is_active: false }), DefaultRatePlanProtected)
      const plan = yield* api.client.ratePlanReads.get({ params: { id: bar } })
      expect(plan).toMatchObject({ is_active: true, is_default: true })
      // Other changes to the default plan are fine.
      yield* updatePlan(api, bar, { is_active: true, public_name: "Our best rate" })
      // Validation comes first (a malformed price, which the typed client would not send).
      expectInvalid(yield* api.patch(`/rate-plans/${bar}`, { is_active: false, base_price: "x" }), "base_price")
    }))

  it.effect("DELETE is a soft delete: the plan vanishes from lists and reads; in-use parents are 409", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const parent = yield* createPlan(api, { name: "Parent" })
      const child = yield* createPlan(api, {
        name: "Child",
        derived_from_id: parent,
        derivation_type: "fixed",
        derivation_value: "-1"
      })
      expectError(yield* api.delete(`/rate-plans/${parent}`), 409, "conflict", "rate_plan_in_use")
      // The exact wire of the answer.
      const res = yield* api.delete(`/rate-plans/${child}`)
      expectStatus(res, 200)
      expect(res.json()).toEqual({ rate_plan_id: child, deleted: true })
      const params = { id: child }
      yield* expectFailure(api.client.ratePlanReads.get({ params }), RatePlanNotFound)
      yield* expectFailure(deletePlan(api, child), RatePlanNotFound)
      yield* expectFailure(updatePlan(api, child, { name: "Back" }), RatePlanNotFound)
      yield* expectFailure(api.client.intervals.list({ params }), RatePlanNotFound)
      yield* expectFailure(api.client.promoCodes.list({ params }), RatePlanNotFound)
      yield* expectFailure(api.client.inclusions.list({ params }), RatePlanNotFound)
      const list = yield* api.client.ratePlanReads.list()
      expect(list.data.map((p) => p.id)).not.toContain(child)
      // A deleted plan cannot be derived from, and no longer holds its parent.
      yield* expectFailure(
        api.client.ratePlanWrites.create({ headers: {},
          payload: {
            room_type_id: api.property.room_types["DBL"],
            name: "Orphan",
            base_price: "1",
            derived_from_id: child,
            derivation_type: "fixed",
            derivation_value: "1"
          }
        }),
        RatePlanNotFound
      )
      expect(yield* deletePlan(api, parent)).toEqual({ rate_plan_id: parent, deleted: true })
      // The row is kept for reservations booked on it.
      const rows = yield* api.sql<{ deleted: boolean }>`SELECT deleted_at IS NOT NULL AS deleted FROM rate_plans WHERE id = ${child}`
      expect(rows[0]?.deleted).toBe(true)
      yield* expectFailure(deletePlan(api, missingId), RatePlanNotFound)
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      expectError(yield* api.delete("/rate-plans/not-an-id"), 404, "not_found", "rate_plan_not_found")
    }))

  it.effect("another property's plans and room types are missing ones (404 with the resource's code)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const other = yield* api.importProperty()
      const theirs = yield* api.clientFor(yield* api.createKey({ propertyId: other.property_id }))
      const mine = yield* createPlan(api)
      yield* expectFailure(theirs.ratePlanWrites.update({ headers: {}, params: { id: mine }, payload: { name: "Hijack" } }), RatePlanNotFound)
      yield* expectFailure(theirs.ratePlanWrites.delete({ headers: {}, params: { id: mine } }), RatePlanNotFound)
      yield* expectFailure(
        theirs.ratePlanWrites.create({ headers: {},
          payload: {
            room_type_id: other.room_types["DBL"],
            name: "Theirs",
            base_price: "1",
            derived_from_id: mine,
            derivation_type: "fixed",
            derivation_value: "1"
          }
        }),
        RatePlanNotFound
      )
      yield* expectFailure(
        theirs.ratePlanWrites.create({ headers: {}, payload: { room_type_id: api.property.room_types["DBL"], name: "X", base_price: "1" } }),
        RoomTypeNotFound
      )
      expect(yield* api.client.ratePlanReads.get({ params: { id: mine } })).toMatchObject({ name: "Test plan" })
    }))

  it.effect("writes need rates:write (403 insufficient_scope)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const readOnly = yield* api.createKey({ scopes: ["rates:read", "catalog:read"] })
      const id = yield* createPlan(api)
      const body = { room_type_id: api.property.room_types["DBL"], name: "X", base_price: "1" }
      const reader = yield* api.clientFor(readOnly)
      const err = yield* expectFailure(reader.ratePlanWrites.create({ headers: {}, payload: body }), InsufficientScope)
      expect(err.message).toContain("rates:write")
      yield* expectFailure(reader.ratePlanWrites.update({ headers: {}, params: { id }, payload: { name: "Y" } }), InsufficientScope)
      yield* expectFailure(reader.ratePlanWrites.delete({ headers: {}, params: { id } }), InsufficientScope)
      const writer = yield* api.clientFor(yield* api.createKey({ scopes: ["rates:write"] }))
      expect(typeof (yield* writer.ratePlanWrites.create({ headers: {}, payload: body })).rate_plan_id).toBe("string")
    }))

  it.effect("concurrent PATCHes cannot build a cycle between two plans", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const derivation = { derivation_type: "percent", derivation_value: "-5" } as const
      const a = yield* createPlan(api, { name: "A" })
      const b = yield* createPlan(api, { name: "B" })
      const [ra, rb] = yield* Effect.all([
        Effect.result(updatePlan(api, a, { derived_from_id: b, ...derivation })),
        Effect.result(updatePlan(api, b, { derived_from_id: a, ...derivation }))
      ], { concurrency: "unbounded" })
      expect([ra._tag, rb._tag].sort()).toEqual(["Failure", "Success"])
      const failed = Result.isFailure(ra) ? ra.failure : Result.isFailure(rb) ? rb.failure : undefined
      expect(failed).toBeInstanceOf(InvalidParameters)
      expect(failed).toMatchObject({ param: "derived_from_id" })
    }))
})
