import { expect, layer } from "@effect/vitest"
import { InsufficientScope, InvalidParameters, RatePlanNotFound, ServiceNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { expectFailure } from "../utils/client.js"
import { createPlan, expectError, expectInvalid, expectStatus, missingId } from "../utils/rateManagement.js"
import type { Inclusion } from "../utils/propertySetup.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

const breakfast: Inclusion = { label: "Breakfast", allocated_amount: "0.00", frequency: "perGuestPerNight", revenue_category: "fnb" }
const spaCredit: Inclusion = {
  label: "Spa credit",
  allocated_amount: "50",
  frequency: "perStay",
  inclusion_kind: "credit",
  revenue_category: "spa",
  included_quantity: 2
}

layer(TestApiLive, { excludeTestServices: true })("inclusions", (it) => {
  it.effect("POST replaces the whole list (200 { rate_plan_id, count }); GET lists it in stored order", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      expect(yield* api.client.inclusions.list({ params: { id: plan } })).toEqual({ data: [] })
      const service = api.property.services["BRK"]
      const res = yield* api.post(`/rate-plans/${plan}/inclusions`, {
        inclusions: [
          { ...breakfast, service_item_id: service },
          spaCredit,
          { label: "Late checkout", allocated_amount: "0", frequency: "perStay", revenue_category: "room", currency: "USD" }
        ]
      })
      expectStatus(res, 200)
      expect(res.json()).toEqual({ rate_plan_id: plan, count: 3 })
      const list = yield* api.client.inclusions.list({ params: { id: plan } })
      const data = list.data
      expect(data).toHaveLength(3)
      expect(data[0]).toMatchObject({
        label: "Breakfast",
        allocated_amount: "0.00",
        frequency: "perGuestPerNight",
        inclusion_kind: "perk",
        revenue_category: "fnb",
        service_item_id: service,
        currency: "EUR",
        included_quantity: 1
      })
      expect(data[1]).toMatchObject({
        label: "Spa credit",
        allocated_amount: "50.00",
        frequency: "perStay",
        inclusion_kind: "credit",
        revenue_category: "spa",
        service_item_id: null,
        currency: "EUR",
        included_quantity: 2
      })
      expect(data[2]).toMatchObject({ label: "Late checkout", currency: "USD", allocated_amount: "0.00" })
      expect(typeof data[0]?.["id"]).toBe("string")

      // A second replace swaps the set; an empty one clears it.
      const again = yield* api.client.inclusions.replace({ headers: {}, params: { id: plan }, payload: { inclusions: [spaCredit] } })
      expect(again).toEqual({ rate_plan_id: plan, count: 1 })
      const after = yield* api.client.inclusions.list({ params: { id: plan } })
      expect(after.data.map((i) => i.label)).toEqual(["Spa credit"])
      const cleared = yield* api.client.inclusions.replace({ headers: {}, params: { id: plan }, payload: { inclusions: [] } })
      expect(cleared).toEqual({ rate_plan_id: plan, count: 0 })
      expect(yield* api.client.inclusions.list({ params: { id: plan } })).toEqual({ data: [] })
    }))

  it.effect("the currency defaults to the plan's; amounts use that currency's minor units", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const usd = api.property.rate_plans["USD-DBL"]
      yield* api.client.inclusions.replace({ headers: {}, params: { id: usd }, payload: { inclusions: [spaCredit] } })
      const list = yield* api.client.inclusions.list({ params: { id: usd } })
      expect(list.data[0]).toMatchObject({ currency: "USD", allocated_amount: "50.00" })
    }))

  it.effect("entries are validated with errors by index (inclusions[i].field)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      // Malformed entries (which the typed client would not send) on the wire; entries of the right form that
      // the rules refuse through the client.
      const post = (body: unknown) => api.post(`/rate-plans/${plan}/inclusions`, body)
      const three = (entry: Record<string, unknown>) => ({ inclusions: [breakfast, spaCredit, breakfast, entry] })
      const refused = (entry: Inclusion, param: string) =>
        expectFailure(
          api.client.inclusions.replace({ headers: {}, params: { id: plan }, payload: { inclusions: [breakfast, spaCredit, breakfast, entry] } }),
          InvalidParameters,
          param
        )
      expectInvalid(yield* post({}), "inclusions")
      expectInvalid(yield* post({ inclusions: "breakfast" }), "inclusions")
      expectInvalid(yield* post({ inclusions: [breakfast, "x"] }), "inclusions[1]")
      expectInvalid(yield* post(three({ ...breakfast, frequency: "daily" })), "inclusions[3].frequency")
      const { label: _label, ...noLabel } = breakfast
      expectInvalid(yield* post(three(noLabel)), "inclusions[3].label")
      expectInvalid(yield* post(three({ ...breakfast, label: "" })), "inclusions[3].label")
      const { revenue_category: _category, ...noCategory } = breakfast
      expectInvalid(yield* post(three(noCategory)), "inclusions[3].revenue_category")
      expectInvalid(yield* post(three({ ...breakfast, revenue_category: "bar" })), "inclusions[3].revenue_category")
      const { allocated_amount: _amount, ...noAmount } = breakfast
      expectInvalid(yield* post(three(noAmount)), "inclusions[3].allocated_amount")
      expectInvalid(yield* post(three({ ...breakfast, allocated_amount: 10 })), "inclusions[3].allocated_amount")
      yield* refused({ ...breakfast, allocated_amount: "10.001" }, "inclusions[3].allocated_amount")
      yield* refused({ ...breakfast, allocated_amount: "-1" }, "inclusions[3].allocated_amount")
      expectInvalid(yield* post(three({ ...breakfast, inclusion_kind: "gift" })), "inclusions[3].inclusion_kind")
      expectInvalid(yield* post(three({ ...breakfast, service_item_id: "BRK" })), "inclusions[3].service_item_id")
      expectInvalid(yield* post(three({ ...breakfast, currency: "usd" })), "inclusions[3].currency")
      yield* refused({ ...breakfast, currency: "GBP" }, "inclusions[3].currency")
      expectInvalid(yield* post(three({ ...breakfast, included_quantity: 0 })), "inclusions[3].included_quantity")
      expectInvalid(yield* post(three({ ...breakfast, included_quantity: 1.5 })), "inclusions[3].included_quantity")
      expectInvalid(yield* post({ inclusions: Array.from({ length: 101 }, () => breakfast) }), "inclusions")
      // Field validation comes before the linked services are looked up.
      expectInvalid(
        yield* post({ inclusions: [{ ...breakfast, service_item_id: missingId }, { ...breakfast, frequency: "x" }] }),
        "inclusions[1].frequency"
      )
    }))

  it.effect("service_item_id must be a service of the property (404 service_not_found)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const other = yield* api.importProperty()
      yield* expectFailure(
        api.client.inclusions.replace({ headers: {}, params: { id: plan }, payload: { inclusions: [breakfast, { ...breakfast, service_item_id: missingId }] } }),
        ServiceNotFound
      )
      yield* expectFailure(
        api.client.inclusions.replace({ headers: {},
          params: { id: plan },
          payload: { inclusions: [{ ...breakfast, service_item_id: other.services["BRK"] }] }
        }),
        ServiceNotFound
      )
    }))

  it.effect("a failing replace leaves the old list as it was", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      yield* api.client.inclusions.replace({ headers: {}, params: { id: plan }, payload: { inclusions: [breakfast, spaCredit] } })
      const before = yield* api.client.inclusions.list({ params: { id: plan } })
      const replace = (inclusions: ReadonlyArray<Inclusion>) =>
        api.client.inclusions.replace({ headers: {}, params: { id: plan }, payload: { inclusions } })
      yield* expectFailure(replace([{ ...spaCredit, label: "New" }, { ...breakfast, service_item_id: missingId }]), ServiceNotFound)
      yield* expectFailure(
        replace([{ ...spaCredit, label: "New" }, { ...breakfast, allocated_amount: "0.001" }]),
        InvalidParameters,
        "inclusions[1].allocated_amount"
      )
      expectInvalid(yield* api.post(`/rate-plans/${plan}/inclusions`, { inclusions: [breakfast, { label: "x" }] }), "inclusions[1].allocated_amount")
      expect(yield* api.client.inclusions.list({ params: { id: plan } })).toEqual(before)
    }))

  it.effect("unknown, deleted and other properties' plans are 404 rate_plan_not_found", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      yield* api.client.inclusions.replace({ headers: {}, params: { id: plan }, payload: { inclusions: [breakfast] } })
      const other = yield* api.importProperty()
      const as = { key: yield* api.createKey({ propertyId: other.property_id }) }
      const theirs = yield* api.clientFor(as.key)
      const missing = <A, E, R>(call: Effect.Effect<A, E, R>) => expectFailure(call, RatePlanNotFound)
      yield* missing(theirs.inclusions.list({ params: { id: plan } }))
      yield* missing(theirs.inclusions.replace({ headers: {}, params: { id: plan }, payload: { inclusions: [] } }))
      yield* missing(api.client.inclusions.list({ params: { id: missingId } }))
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      expectError(yield* api.get("/rate-plans/nope/inclusions"), 404, "not_found", "rate_plan_not_found")
      yield* missing(api.client.inclusions.replace({ headers: {}, params: { id: missingId }, payload: { inclusions: [] } }))
      // The other property's request changed nothing.
      const list = yield* api.client.inclusions.list({ params: { id: plan } })
      expect(list["data"]).toHaveLength(1)
      expect(yield* api.client.ratePlanWrites.delete({ headers: {}, params: { id: plan } })).toEqual({ rate_plan_id: plan, deleted: true })
      yield* missing(api.client.inclusions.list({ params: { id: plan } }))
      yield* missing(api.client.inclusions.replace({ headers: {}, params: { id: plan }, payload: { inclusions: [] } }))
    }))

  it.effect("GET needs rates:read, POST rates:write (403 insufficient_scope)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* createPlan(api)
      const reader = yield* api.clientFor(yield* api.createKey({ scopes: ["rates:read"] }))
      const writerKey = yield* api.createKey({ scopes: ["rates:write"] })
      const writer = yield* api.clientFor(writerKey)
      expect(yield* reader.inclusions.list({ params: { id: plan } })).toEqual({ data: [] })
      const readDenied = yield* expectFailure(writer.inclusions.list({ params: { id: plan } }), InsufficientScope)
      expect(readDenied.message).toContain("rates:read")
      const writeDenied = yield* expectFailure(
        reader.inclusions.replace({ headers: {}, params: { id: plan }, payload: { inclusions: [] } }),
        InsufficientScope
      )
      expect(writeDenied.message).toContain("rates:write")
      expect(yield* writer.inclusions.replace({ headers: {}, params: { id: plan }, payload: { inclusions: [breakfast] } })).toEqual({
        rate_plan_id: plan,
        count: 1
      })
    }))
})
