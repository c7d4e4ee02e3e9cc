import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Option from "effect/Option"
import * as fc from "fast-check"
import { bookableQuote } from "../../src/booking/bookableQuote.js"
import type { RatePlan } from "../../src/quotes/model.js"
import { type Offer, offerFor, withAvailability } from "../../src/quotes/offer.js"
import type { StayQuery } from "../../src/quotes/stay.js"
import { catalogue, d, fmt, listedPlan, plan, property, roomType, type TestPlan, type TestRoomType } from "../quotes/fixtures.js"

const dbl = roomType("dbl", { name: "Double" })
const stay: StayQuery = { checkIn: "2026-12-01", checkOut: "2026-12-04", party: { adults: 2 } }

/** The offer a hold prices: as if a room were free, then the count under the lock. */
const offer = (model: RatePlan, available = 1, options: { readonly stay?: StayQuery; readonly fixedTax?: boolean } = {}) =>
  offerFor({
    snapshot: catalogue({
      roomTypes: [dbl],
      pricing: property({ taxes: options.fixedTax === true ? [{ code: "R", name: "Resort", kind: "perStay", value: d("5.00") }] : [] })
    }),
    plan: listedPlan(model),
    roomTypeId: "dbl",
    stay: options.stay ?? stay,
    salesContext: "back_office",
    available: 1,
    pricing: { trace: false }
  }).pipe(Option.map(withAvailability(available)))

const outcome = (found: Option.Option<Offer<TestPlan, TestRoomType>>) =>
  Result.match(bookableQuote(found, { id: "bar" }, dbl, stay), {
    onFailure: (error) => `${error._tag} ${error.param ?? "-"}: ${error.message}`,
    onSuccess: (quote) => `quote ${fmt(quote.total, quote.currency)} ${quote.currency}`
  })

describe("bookableQuote", () => {
  it.each([
    { case: "bookable", found: offer(plan()), expected: "quote 300.00 EUR" },
    {
      case: "no offer (hidden plan)",
      found: Option.none(),
      expected: "RatePlanNotFound -: Rate plan bar is not offered for this room type, stay or sales context"
    },
    {
      case: "a visibility reason",
      found: offer(plan({ minLos: 5 })),
      expected: "RatePlanNotFound -: Rate plan bar cannot be booked for this request (min_stay)"
    },
    {
      case: "a visibility reason, sold out too: the plan is not found, sold_out is not listed",
      found: offer(plan({ minLos: 5, maxLos: 2 }), 0),
      expected: "RatePlanNotFound -: Rate plan bar cannot be booked for this request (min_stay, max_stay)"
    },
    {
      case: "unpriceable: not found, as the plan cannot be sold for this stay",
      found: offer(plan({ currency: "USD" }), 1, { fixedTax: true }),
      expected: "RatePlanNotFound -: Rate plan bar cannot be booked for this request (currency_unavailable)"
    },
    {
      case: "sold out only",
      found: offer(plan(), 0),
      expected: "NoAvailability -: No Double is free on every night from 2026-12-01 to 2026-12-04"
    },
    {
      case: "the most one folio holds",
      found: offer(plan({ basePrice: d("10000000000000.00") }), 1, { stay: { ...stay, checkOut: "2026-12-02" } }),
      expected: "quote 10000000000000.00 EUR"
    },
    {
      case: "a cent above what one folio holds",
      found: offer(plan({ basePrice: d("10000000000000.01") }), 1, { stay: { ...stay, checkOut: "2026-12-02" } }),
      expected:
        "InvalidParameters rate_plan_id: rate_plan_id: prices this stay above the most one folio holds (10000000000000.00 EUR)"
    }
  ])("$case", ({ expected, found }) => {
    expect(outcome(found)).toBe(expected)
  })

  it("an offer priced above what one folio holds is not bookable, and says why; sold out too, it is sold out", () => {
    const oneNight = { stay: { ...stay, checkOut: "2026-12-02" } }
    const above = offer(plan({ basePrice: d("10000000000000.01") }), 1, oneNight)
    expect(Option.map(above, (o) => [o.bookable, o.reasons])).toEqual(Option.some([false, ["price_out_of_range"]]))
    const most = offer(plan({ basePrice: d("10000000000000.00") }), 1, oneNight)
    expect(Option.map(most, (o) => [o.bookable, o.reasons])).toEqual(Option.some([true, []]))
    expect(outcome(offer(plan({ basePrice: d("10000000000000.01") }), 0, oneNight)))
      .toBe("NoAvailability -: No Double is free on every night from 2026-12-01 to 2026-12-04")
  })

  it("an offer without a quote is never booked, whatever its reasons say", () => {
    const found = Option.map(offer(plan()), (o): Offer<TestPlan, TestRoomType> => ({ ...o, quote: Option.none() }))
    expect(outcome(found)).toBe("NoAvailability -: No Double is free on every night from 2026-12-01 to 2026-12-04")
  })

  it("books the offer's own quote exactly when the offer is bookable", () => {
    const arb = fc.record({
      minLos: fc.integer({ min: 1, max: 5 }),
      available: fc.integer({ min: -1, max: 3 }),
      adults: fc.integer({ min: 1, max: 6 })
    })
    fc.assert(fc.property(arb, ({ adults, available, minLos }) => {
      const found = offer(plan({ minLos }), available, { stay: { ...stay, party: { adults } } })
      const o = Option.getOrThrow(found)
      const booked = bookableQuote(found, { id: "bar" }, dbl, stay)
      expect(Result.isSuccess(booked)).toBe(o.bookable)
      if (Result.isSuccess(booked)) expect(Option.some(booked.success)).toEqual(o.quote)
      else expect(booked.failure._tag).toBe(o.reasons.every((r) => r === "sold_out") ? "NoAvailability" : "RatePlanNotFound")
    }))
  })
})
