import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as fc from "fast-check"
import { type RatesQuery, ratesListing, ratesScope } from "../../src/quotes/ratesListing.js"
import { catalogue, d, listedPlan, plan, roomType } from "./fixtures.js"

// Plans in creation order: the suite's plan first, so listing in room type order is visible.
const plans = [
  listedPlan(plan({ id: "s1", roomTypeId: "suite" })),
  listedPlan(plan({ id: "bar" })),
  listedPlan(plan({ id: "nonref", basePrice: d("90.00") })),
  listedPlan(plan({ id: "hidden", isActive: false }))
]
const rooms = [roomType("dbl"), roomType("suite")]
const property = catalogue({ plans, roomTypes: rooms })
const stay: RatesQuery = { checkIn: "2026-12-01", checkOut: "2026-12-04", party: { adults: 2 } }

const scopeOf = (query: Partial<RatesQuery>) =>
  Result.match(ratesScope(property, { ...stay, ...query }), {
    onFailure: (error) => `${error._tag}: ${error.message}`,
    onSuccess: (scope) => ({
      roomTypeId: scope.roomTypeId,
      onePlan: scope.onePlan?.id ?? null,
      candidates: scope.candidates.map((p) => p.id)
    })
  })

describe("ratesScope", () => {
  it.each<{ case: string; query: Partial<RatesQuery>; expected: unknown }>([
    { case: "every plan", query: {}, expected: { roomTypeId: null, onePlan: null, candidates: ["s1", "bar", "nonref", "hidden"] } },
    { case: "null is not given", query: { roomTypeId: null, ratePlanId: null }, expected: { roomTypeId: null, onePlan: null, candidates: ["s1", "bar", "nonref", "hidden"] } },
    { case: "the room type's plans", query: { roomTypeId: "dbl" }, expected: { roomTypeId: "dbl", onePlan: null, candidates: ["bar", "nonref", "hidden"] } },
    { case: "the plan alone", query: { ratePlanId: "bar" }, expected: { roomTypeId: null, onePlan: "bar", candidates: ["bar"] } },
    {
      case: "the plan alone, even of another room type",
      query: { roomTypeId: "dbl", ratePlanId: "s1" },
      expected: { roomTypeId: "dbl", onePlan: "s1", candidates: ["s1"] }
    },
    { case: "no such room type", query: { roomTypeId: "loft" }, expected: "RoomTypeNotFound: No room type loft" },
    { case: "no such plan", query: { ratePlanId: "nope" }, expected: "RatePlanNotFound: No rate plan nope" },
    { case: "neither: the room type first", query: { roomTypeId: "loft", ratePlanId: "nope" }, expected: "RoomTypeNotFound: No room type loft" }
  ])("$case", ({ expected, query }) => {
    expect(scopeOf(query)).toEqual(expected)
  })
})

const listing = (query: Partial<RatesQuery>, available: Record<string, number> = { dbl: 2, suite: 1 }) => {
  const full = { ...stay, ...query }
  return Result.flatMap(ratesScope(property, full), (scope) =>
    ratesListing({
      catalogue: property,
      scope,
      query: full,
      salesContext: "back_office",
      available: new Map(Object.entries(available))
    }))
}
const listed = (query: Partial<RatesQuery>, available?: Record<string, number>) =>
  Result.match(listing(query, available), {
    onFailure: (error) => `${error._tag}: ${error.message}`,
    onSuccess: (offers) => offers.map((o) => `${o.plan.id}@${o.roomType.id}${o.bookable ? "" : ` (${o.reasons.join(",")})`}`)
  })

describe("ratesListing", () => {
  it.each<{ case: string; query: Partial<RatesQuery>; available?: Record<string, number>; expected: unknown }>([
    { case: "room type order, then plan order; hidden plans never", query: {}, expected: ["bar@dbl", "nonref@dbl", "s1@suite"] },
    { case: "only bookable offers", query: {}, available: { dbl: 0, suite: 1 }, expected: ["s1@suite"] },
    {
      case: "unbookable ones too when asked, with their reasons",
      query: { includeUnavailable: true },
      available: { dbl: 0, suite: 1 },
      expected: ["bar@dbl (sold_out)", "nonref@dbl (sold_out)", "s1@suite"]
    },
    {
      case: "a room type not counted has no room free",
      query: { includeUnavailable: true },
      available: { dbl: 1 },
      expected: ["bar@dbl", "nonref@dbl", "s1@suite (sold_out)"]
    },
    { case: "one room type's plans", query: { roomTypeId: "suite" }, expected: ["s1@suite"] },
    { case: "one plan", query: { ratePlanId: "nonref" }, expected: ["nonref@dbl"] },
    {
      case: "one plan, sold out: an empty list, not a 404",
      query: { ratePlanId: "nonref" },
      available: { dbl: 0 },
      expected: []
    },
    {
      case: "one plan the rule hides: 404",
      query: { ratePlanId: "hidden" },
      expected: "RatePlanNotFound: Rate plan hidden is not offered for this request"
    },
    {
      case: "one plan on another room type than the one asked: 404",
      query: { ratePlanId: "s1", roomTypeId: "dbl" },
      expected: "RatePlanNotFound: Rate plan s1 is not offered for this request"
    }
  ])("$case", ({ available, expected, query }) => {
    expect(listed(query, available)).toEqual(expected)
  })

  it("each night carries its trace unless trace=false", () => {
    const traces = (query: Partial<RatesQuery>) =>
      Result.getOrThrow(listing({ ...query, ratePlanId: "bar" }))[0].nights.map((night) => night.trace.length > 0)
    expect(traces({})).toEqual([true, true, true])
    expect(traces({ trace: true })).toEqual([true, true, true])
    expect(traces({ trace: false })).toEqual([false, false, false])
  })

  it("lists bookable offers only, a subset of the full list in the same order, room types in catalogue order", () => {
    const counts = fc.record({ dbl: fc.integer({ min: -1, max: 3 }), suite: fc.integer({ min: -1, max: 3 }) })
    fc.assert(fc.property(counts, fc.constantFrom(undefined, "dbl", "suite"), (available, roomTypeId) => {
      const query = roomTypeId === undefined ? {} : { roomTypeId }
      const bookable = Result.getOrThrow(listing(query, available))
      const all = Result.getOrThrow(listing({ ...query, includeUnavailable: true }, available))
      expect(bookable.every((o) => o.bookable)).toBe(true)
      expect(bookable).toEqual(all.filter((o) => o.bookable))
      const positions = all.map((o) => rooms.findIndex((r) => r.id === o.roomType.id))
      expect(positions).toEqual([...positions].sort((a, b) => a - b))
    }))
  })
})
