import { expect, layer } from "@effect/vitest"
import { InsufficientScope, InvalidParameters, MissingApiKey, RatePlanNotFound, RoomTypeNotFound } from "@hotel/domain"
import type { RatesParams } from "@hotel/api/quotes/Api"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { expectFailure, type HotelClient } from "../utils/client.js"
import { expectInvalid, withQuery } from "../utils/rateManagement.js"
import {
  expiredHold,
  insertGuest,
  insertInterval,
  insertPlan,
  insertPromoCode,
  insertReservation,
  liveHold
} from "../utils/sqlSeed.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

type Query = typeof RatesParams.Type

/** The offers for a stay through the typed client (`client`: a key's). */
const offers = (client: HotelClient, query: Query) => Effect.map(client.rates.rates({ query }), (answer) => answer.data)

/** A raw path, for what the typed client would not send and for the exact wire of errors. */
const query = (params: Record<string, string | number | boolean>) => withQuery("/rates", params)

// A Monday-to-Thursday stay far enough ahead for every booking-window rule to be about the dates below.
const stay = { check_in: "2031-03-10", check_out: "2031-03-13" }

layer(TestApiLive, { excludeTestServices: true })("GET /rates", (it) => {
  it.effect("quotes the fixture's best available rate to the cent, line for line", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const bar = api.property.rate_plans["BAR-DBL"]
      const [answer, response] = yield* api.client.rates.rates({ query: { ...stay, adults: 2, rate_plan_id: bar, include: "trace" }, responseMode: "decoded-and-response" })
      expect(response.headers["cache-control"]).toBe("no-store")
      const [offer, ...rest] = answer.data
      expect(rest).toHaveLength(0)
      expect(offer.rate_plan_id).toBe(bar)
      expect(offer.room_type_id).toBe(api.property.room_types["DBL"])
      expect(offer.rate_plan_name).toBe("Best available rate")
      expect(offer.currency).toBe("EUR")
      expect(offer.nights.map((n) => [n.date, n.amount])).toEqual([
        ["2031-03-10", "120.00"],
        ["2031-03-11", "120.00"],
        ["2031-03-12", "120.00"]
      ])
      expect(offer.nights[0].trace?.map((t) => [t.step, t.amount])).toEqual([["base", "120.00"], ["rounding", "120.00"]])
      expect(offer.lines).toEqual([
        { kind: "room", description: "Room 2031-03-10", amount: "120.00" },
        { kind: "room", description: "Room 2031-03-11", amount: "120.00" },
        { kind: "room", description: "Room 2031-03-12", amount: "120.00" },
        { kind: "tax", description: "VAT", amount: "21.60" },
        { kind: "tax", description: "City tax", amount: "12.00" }
      ])
      expect(offer.taxes).toEqual([{ code: "VAT", name: "VAT", amount: "21.60" }, {
        code: "CITY",
        name: "City tax",
        amount: "12.00"
      }])
      expect(offer.total).toBe("393.60")
      expect(offer.nightly_rate).toBe("120.00")
      // Lisbon is on UTC in March: the 7-day tier lasts through 03-03, the 2-day one through 03-08.
      expect(offer.cancellation_terms).toEqual([
        { until: "2031-03-04T00:00:00.000Z", refund_percent: 100 },
        { until: "2031-03-09T00:00:00.000Z", refund_percent: 50 },
        { until: null, refund_percent: 0 }
      ])
      expect(offer.inclusions).toEqual([])
      expect(offer.available).toBe(3)
      expect(offer.bookable).toBe(true)
      expect(offer.reasons).toEqual([])
    }))

  it.effect("prices extra children by age bracket and exempts them from the city tax", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const bar = api.property.rate_plans["BAR-DBL"]
      const [offer] = yield* offers(api.client, { ...stay, adults: 2, child_ages: [9], rate_plan_id: bar, include: "trace" })
      // 120 + 50% of 30 for the 9-year-old; VAT 6% of 405; city tax for the two adults only.
      expect(offer.nights.map((n) => n.amount)).toEqual(["135.00", "135.00", "135.00"])
      expect(offer.nights[0].trace?.map((t) => t.step)).toEqual(["base", "extra_guest", "rounding"])
      expect(offer.taxes.map((t) => [t.code, t.amount])).toEqual([["VAT", "24.30"], ["CITY", "12.00"]])
      expect(offer.total).toBe("441.30")
      // `child_ages` is the child count: `children` is ignored when both are sent.
      const [same] = yield* offers(api.client, { ...stay, adults: 2, children: 0, child_ages: [9], rate_plan_id: bar })
      expect(same.total).toBe("441.30")
      // A child without an age pays as an adult and is taxed.
      const [unknown] = yield* offers(api.client, { ...stay, adults: 2, children: 1, rate_plan_id: bar })
      expect(unknown.nights[0].amount).toBe("150.00")
      expect(unknown.total).toBe("495.00")
    }))

  it.effect("quotes a plan in another currency entirely in it, converting base-currency taxes per line", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const usd = api.property.rate_plans["USD-DBL"]
      const [offer] = yield* offers(api.client, { ...stay, adults: 2, rate_plan_id: usd })
      expect(offer.currency).toBe("USD")
      // 130 x 3; VAT 6%; 12.00 EUR of city tax at 0.92 EUR per USD = 13.04 USD.
      expect(offer.lines.map((l) => l.amount)).toEqual(["130.00", "130.00", "130.00", "23.40", "13.04"])
      expect(offer.total).toBe("426.44")
    }))

  it.effect("lists one offer per visible plan, room type by room type, and filters by room type", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { rate_plans, room_types } = api.property
      const all = yield* offers(api.client, { ...stay, adults: 2 })
      const fixture = all.filter((o) => Object.values(rate_plans).includes(o.rate_plan_id))
      expect(fixture.map((o) => o.rate_plan_id)).toEqual([rate_plans["BAR-DBL"], rate_plans["USD-DBL"], rate_plans["BAR-STE"]])
      const suites = yield* offers(api.client, { ...stay, adults: 2, room_type_id: room_types["STE"] })
      expect(suites.map((o) => o.rate_plan_id)).toEqual([rate_plans["BAR-STE"]])
      expect(suites[0].total).toBe("807.00") // 250 x 3 = 750, VAT 45, city tax 12
      expect(suites[0].available).toBe(1)
      // ids are case-insensitive, in the query as anywhere else
      const upper = { ...stay, adults: 2, room_type_id: room_types["STE"].toUpperCase(), rate_plan_id: rate_plans["BAR-STE"].toUpperCase() }
      expect((yield* offers(api.client, upper)).map((o) => o.rate_plan_id)).toEqual([rate_plans["BAR-STE"]])
    }))

  it.effect("include=trace adds each night's trace and changes nothing else; without it no night has a trace key", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const params = { ...stay, adults: 2, include_unavailable: true }
      const untraced = yield* offers(api.client, params)
      const traced = yield* offers(api.client, { ...params, include: "trace" })
      expect(traced.every((offer) => offer.nights.every((night) => (night.trace ?? []).length > 0))).toBe(true)
      const withoutTrace = traced.map((offer) => ({
        ...offer,
        nights: offer.nights.map((night) => ({ date: night.date, amount: night.amount }))
      }))
      expect(untraced).toEqual(withoutTrace)
      // On the wire: no `trace` key at all without `include=trace`.
      const raw = yield* api.get(query({ ...params }))
      expect(raw.status).toBe(200)
      const body = raw.json<{ data: ReadonlyArray<{ nights: ReadonlyArray<Record<string, unknown>> }> }>()
      expect(body.data.length).toBeGreaterThan(0)
      expect(body.data.every((offer) => offer.nights.every((night) => Object.keys(night).sort().join() === "amount,date"))).toBe(true)
    }))
})

layer(TestApiLive, { excludeTestServices: true })("GET /rates: the visibility rule", (it) => {
  /** The offer of one plan for the stay, listed even when unbookable (or none when the plan is hidden). */
  const offerOf = (planId: string, params: Partial<Query> = {}) =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const result = yield* Effect.result(
        offers(api.client, { ...stay, adults: 2, rate_plan_id: planId, include_unavailable: true, ...params })
      )
      if (Result.isFailure(result)) {
        expect(result.failure).toBeInstanceOf(RatePlanNotFound)
        return undefined
      }
      const list = result.success
      expect(list).toHaveLength(1)
      return list[0]
    })

  /** A fresh DBL plan (seeded with SQL) for one rule. */
  const plan = (seed: Parameters<typeof insertPlan>[3] = {}) =>
    Effect.gen(function*() {
      const api = yield* TestApi
      return yield* insertPlan(api.sql, api.property.property_id, api.property.room_types["DBL"], seed)
    })

  const reasonsOf = (planId: string, params: Partial<Query> = {}) =>
    Effect.map(offerOf(planId, params), (offer) => offer?.reasons)

  it.effect("hides inactive and deleted plans, even with include_unavailable", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const inactive = yield* plan({ is_active: false })
      const deleted = yield* plan({ deleted: true })
      expect(yield* offerOf(inactive)).toBeUndefined()
      expect(yield* offerOf(deleted)).toBeUndefined()
      const listed = (yield* offers(api.client, { ...stay, adults: 2, include_unavailable: true })).map((o) => o.rate_plan_id)
      expect(listed).not.toContain(inactive)
      expect(listed).not.toContain(deleted)
    }))

  it.effect("hides a plan priced on another room type than the one asked for", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const elsewhere = offers(api.client, {
        ...stay,
        adults: 2,
        rate_plan_id: api.property.rate_plans["BAR-DBL"],
        room_type_id: api.property.room_types["STE"]
      })
      yield* expectFailure(elsewhere, RatePlanNotFound)
    }))

  it.effect("hides plans the key's sales context does not sell", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const backOfficeOnly = yield* plan({ active_for_booking_engine: false, active_for_channels: false })
      const channelOnly = yield* plan({ active_for_booking_engine: false, active_for_channels: true })
      const list = (context: "back_office" | "booking_engine" | "channel") =>
        Effect.gen(function*() {
          const key = yield* api.createKey({ context, scopes: ["catalog:read"] })
          const list = yield* offers(yield* api.clientFor(key), { ...stay, adults: 2, include_unavailable: true })
          return list.map((o) => o.rate_plan_id)
        })
      const backOffice = yield* list("back_office")
      expect(backOffice).toContain(backOfficeOnly)
      expect(backOffice).toContain(channelOnly)
      const engine = yield* list("booking_engine")
      expect(engine).not.toContain(backOfficeOnly)
      expect(engine).not.toContain(channelOnly)
      expect(engine).toContain(api.property.rate_plans["BAR-STE"])
      const channel = yield* list("channel")
      expect(channel).toContain(channelOnly)
      expect(channel).not.toContain(backOfficeOnly)
      expect(channel).not.toContain(api.property.rate_plans["BAR-STE"])
      // Asked for by id, a plan the context does not sell does not exist for it.
      const bookingEngine = yield* api.clientFor(yield* api.createKey({ context: "booking_engine", scopes: ["catalog:read"] }))
      yield* expectFailure(offers(bookingEngine, { ...stay, adults: 2, rate_plan_id: backOfficeOnly }), RatePlanNotFound)
    }))

  it.effect("booking_window: today must be inside the window, both ends included", () =>
    Effect.gen(function*() {
      const today = new Date().toISOString().slice(0, 10)
      expect(yield* reasonsOf(yield* plan({ booking_window_start: "2020-01-01", booking_window_end: "2020-12-31" })))
        .toEqual(["booking_window"])
      expect(yield* reasonsOf(yield* plan({ booking_window_start: "2030-01-01" }))).toEqual(["booking_window"])
      // Lisbon's date is at most a day off UTC's: a window of yesterday..tomorrow always holds today.
      const around = yield* plan({
        booking_window_start: new Date(Date.parse(today) - 86_400_000).toISOString().slice(0, 10),
        booking_window_end: new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10)
      })
      expect(yield* reasonsOf(around)).toEqual([])
    }))

  it.effect("stay_window: every night inside the window; the check-out day is not a night", () =>
    Effect.gen(function*() {
      const exact = yield* plan({ stay_window_start: "2031-03-10", stay_window_end: "2031-03-12" })
      expect(yield* reasonsOf(exact)).toEqual([])
      const short = yield* plan({ stay_window_start: "2031-03-11", stay_window_end: "2031-03-20" })
      expect(yield* reasonsOf(short)).toEqual(["stay_window"])
    }))

  it.effect("min_stay / max_stay: the plan's length of stay and the arrival interval's rules", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      expect(yield* reasonsOf(yield* plan({ min_los: 4 }))).toEqual(["min_stay"])
      expect(yield* reasonsOf(yield* plan({ min_los: 3, max_los: 3 }))).toEqual([])
      expect(yield* reasonsOf(yield* plan({ max_los: 2 }))).toEqual(["max_stay"])
      const seasonal = yield* plan()
      yield* insertInterval(api.sql, api.property.property_id, seasonal, {
        start_date: "2031-03-10",
        end_date: "2031-03-11",
        min_stay: 5
      })
      expect(yield* reasonsOf(seasonal)).toEqual(["min_stay"])
      // Only the arrival night's interval counts: arriving a day later escapes it.
      expect(yield* reasonsOf(seasonal, { check_in: "2031-03-11", check_out: "2031-03-13" })).toEqual([])
    }))

  it.effect("closed_to_arrival, closed_to_departure and stop_sell come from the intervals", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const property = api.property.property_id
      const arrival = yield* plan()
      yield* insertInterval(api.sql, property, arrival, { start_date: "2031-03-10", end_date: "2031-03-11", closed_to_arrival: true })
      expect(yield* reasonsOf(arrival)).toEqual(["closed_to_arrival"])
      const departure = yield* plan()
      yield* insertInterval(api.sql, property, departure, { start_date: "2031-03-13", end_date: "2031-03-14", closed_to_departure: true })
      expect(yield* reasonsOf(departure)).toEqual(["closed_to_departure"])
      expect(yield* reasonsOf(departure, { check_out: "2031-03-12" })).toEqual([])
      const stopped = yield* plan()
      yield* insertInterval(api.sql, property, stopped, { start_date: "2031-03-12", end_date: "2031-03-13", stop_sell: true })
      expect(yield* reasonsOf(stopped)).toEqual(["stop_sell"])
      expect(yield* reasonsOf(stopped, { check_out: "2031-03-12" })).toEqual([])
    }))

  it.effect("party_too_large: adults + children above the room type's max occupancy", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const bar = api.property.rate_plans["BAR-DBL"]
      const offer = yield* offerOf(bar, { adults: 2, child_ages: [4, 9] })
      expect(offer?.reasons).toEqual(["party_too_large"])
      expect(offer?.bookable).toBe(false)
      // Without include_unavailable the offer is simply not listed.
      const listed = yield* offers(api.client, { ...stay, adults: 2, child_ages: [4, 9] })
      expect(listed.map((o) => o.rate_plan_id)).toEqual([api.property.rate_plans["BAR-STE"]])
      const explicit = yield* offers(api.client, { ...stay, adults: 2, child_ages: [4, 9], include_unavailable: false })
      expect(explicit.map((o) => o.rate_plan_id)).toEqual([api.property.rate_plans["BAR-STE"]])
    }))

  it.effect("promo codes: required, invalid, matched case-insensitively, inside their window", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const property = api.property.property_id
      const gated = yield* plan({ requires_promo_code: true, kind: "promotion" })
      yield* insertPromoCode(api.sql, property, gated, { code: "SPRING" })
      yield* insertPromoCode(api.sql, property, gated, { code: "OLD", valid_to: "2020-12-31" })
      yield* insertPromoCode(api.sql, property, gated, { code: "OFF", is_active: false })
      expect(yield* reasonsOf(gated)).toEqual(["promo_code_required"])
      expect(yield* reasonsOf(gated, { promo_code: "WINTER" })).toEqual(["promo_code_invalid"])
      expect(yield* reasonsOf(gated, { promo_code: "OLD" })).toEqual(["promo_code_invalid"])
      expect(yield* reasonsOf(gated, { promo_code: "OFF" })).toEqual(["promo_code_invalid"])
      expect(yield* reasonsOf(gated, { promo_code: "spring" })).toEqual([])
      // A code sent to ungated plans is ignored: the public plans are still listed.
      const listed = (yield* offers(api.client, { ...stay, adults: 2, promo_code: "SPRING" })).map((o) => o.rate_plan_id)
      expect(listed).toContain(api.property.rate_plans["BAR-DBL"])
      expect(listed).toContain(gated)
      // A code of another plan does not open this one.
      const other = yield* plan({ requires_promo_code: true })
      expect(yield* reasonsOf(other, { promo_code: "SPRING" })).toEqual(["promo_code_invalid"])
    }))

  it.effect("promo codes: max_redemptions counts live holds and stays, not expired holds or cancellations", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const property = api.property.property_id
      const roomTypeId = api.property.room_types["DBL"]
      const gated = yield* plan({ requires_promo_code: true })
      const code = yield* insertPromoCode(api.sql, property, gated, { code: "TWICE", max_redemptions: 2 })
      const booked = (status: "tentative" | "confirmed" | "cancelled" | "checked_out", holdExpiresAt: Date | null = null) =>
        insertReservation(api.sql, property, {
          roomTypeId,
          ratePlanId: gated,
          checkIn: "2031-05-01",
          checkOut: "2031-05-02",
          status,
          holdExpiresAt,
          promoCodeId: code
        })
      yield* booked("cancelled")
      yield* booked("tentative", expiredHold())
      yield* booked("confirmed")
      expect(yield* reasonsOf(gated, { promo_code: "TWICE" })).toEqual([])
      yield* booked("tentative", liveHold())
      expect(yield* reasonsOf(gated, { promo_code: "TWICE" })).toEqual(["promo_code_invalid"])
      // max_per_guest needs a guest: a quote has none, so only the total cap applies.
      const perGuest = yield* plan({ requires_promo_code: true })
      const once = yield* insertPromoCode(api.sql, property, perGuest, { code: "ONCE", max_per_guest: 1 })
      const guestId = yield* insertGuest(api.sql, property)
      yield* insertReservation(api.sql, property, {
        roomTypeId,
        ratePlanId: perGuest,
        checkIn: "2031-05-01",
        checkOut: "2031-05-02",
        status: "checked_out",
        guestId,
        promoCodeId: once
      })
      expect(yield* reasonsOf(perGuest, { promo_code: "ONCE" })).toEqual([])
    }))

  it.effect("a derived plan prices from its parent's seasons and passes every rule of its ancestors", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const property = api.property.property_id
      const parent = yield* plan({ base_price: "100.00" })
      yield* insertInterval(api.sql, property, parent, { start_date: "2031-03-11", end_date: "2031-03-12", price_tue: "200.00" })
      const child = yield* plan({ derived_from_id: parent, derivation_type: "percent", derivation_value: "-10", kind: "promotion" })
      const grandchild = yield* plan({ derived_from_id: child, derivation_type: "fixed", derivation_value: "-5.00" })
      const offer = yield* offerOf(grandchild, { include: "trace" })
      expect(offer?.nights.map((n) => n.amount)).toEqual(["85.00", "175.00", "85.00"])
      expect(offer?.nights[1].trace?.map((t) => [t.step, t.amount])).toEqual([
        ["interval", "200.00"],
        ["derivation", "180.00"],
        ["derivation", "175.00"],
        ["rounding", "175.00"]
      ])
      expect(offer?.reasons).toEqual([])
      // Only the nightly price is derived: extra guests pay the grandchild's own charge (none), not its parent's.
      yield* api.sql`UPDATE rate_plans SET extra_guest_charge = 30 WHERE id = ${parent}`.pipe(Effect.orDie)
      expect((yield* offerOf(grandchild, { adults: 3 }))?.nights.map((n) => n.amount)).toEqual(["85.00", "175.00", "85.00"])
      expect((yield* offerOf(parent, { adults: 3 }))?.nights.map((n) => n.amount)).toEqual(["130.00", "230.00", "130.00"])
      // A stop-sell night on the grandparent stops the grandchild too.
      yield* insertInterval(api.sql, property, parent, { start_date: "2031-03-12", end_date: "2031-03-13", stop_sell: true })
      expect(yield* reasonsOf(grandchild)).toEqual(["stop_sell"])
      // An inactive ancestor hides its descendants.
      yield* api.sql`UPDATE rate_plans SET is_active = false WHERE id = ${child}`.pipe(Effect.orDie)
      expect(yield* offerOf(grandchild)).toBeUndefined()
    }))

  it.effect("sold_out: no room free on some night; listed only with include_unavailable", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const suite = api.property.room_types["STE"]
      const bar = api.property.rate_plans["BAR-STE"]
      yield* insertReservation(api.sql, api.property.property_id, {
        roomTypeId: suite,
        ratePlanId: bar,
        checkIn: "2031-07-02",
        checkOut: "2031-07-03",
        status: "confirmed"
      })
      const dates = { check_in: "2031-07-01", check_out: "2031-07-04" }
      const listed = yield* offers(api.client, { ...dates, adults: 2, room_type_id: suite })
      expect(listed).toEqual([])
      const [offer] = yield* offers(api.client, { ...dates, adults: 2, room_type_id: suite, include_unavailable: true })
      expect(offer.available).toBe(0)
      expect(offer.bookable).toBe(false)
      expect(offer.reasons).toEqual(["sold_out"])
      expect(offer.total).toBe("807.00")
      // Reasons accumulate: sold out and too many guests.
      const [both] = yield* offers(api.client, { ...dates, adults: 5, room_type_id: suite, include_unavailable: true })
      expect(both.reasons).toEqual(["sold_out", "party_too_large"])
    }))

  it.effect("inclusions become the offer's entitlements, multiplied by their frequency", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const withPerks = yield* plan()
      yield* api.sql`
        INSERT INTO rate_plan_inclusions (rate_plan_id, position, label, allocated_amount, frequency, inclusion_kind,
          revenue_category, currency, included_quantity)
        VALUES (${withPerks}, 0, 'Breakfast', '0', 'perGuestPerNight', 'perk', 'fnb', 'EUR', 1),
               (${withPerks}, 1, 'Spa credit', '25.00', 'perStay', 'credit', 'spa', 'EUR', 1)`.pipe(Effect.orDie)
      const offer = yield* offerOf(withPerks)
      expect(offer?.inclusions).toEqual([
        {
          label: "Breakfast",
          inclusion_kind: "perk",
          revenue_category: "fnb",
          service_item_id: null,
          currency: "EUR",
          quantity: 6,
          allowance: "0.00"
        },
        {
          label: "Spa credit",
          inclusion_kind: "credit",
          revenue_category: "spa",
          service_item_id: null,
          currency: "EUR",
          quantity: 1,
          allowance: "25.00"
        }
      ])
      // Inclusions are not charged.
      expect(offer?.total).toBe("330.00")
    }))

  it.effect("a plan in a currency without an exchange rate is unbookable, never a 500", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const gbp = yield* plan({ currency: "GBP", base_price: "90.00" })
      const offer = yield* offerOf(gbp)
      expect(offer?.currency).toBe("GBP")
      expect(offer?.bookable).toBe(false)
      expect(offer?.reasons).toEqual(["currency_unavailable"])
      expect(offer?.total).toBeNull()
      expect(offer?.lines).toEqual([])
      expect(offer?.nights.map((n) => n.amount)).toEqual(["90.00", "90.00", "90.00"])
      // The list without include_unavailable still answers, without it.
      const listed = (yield* offers(api.client, { ...stay, adults: 2 })).map((o) => o.rate_plan_id)
      expect(listed).not.toContain(gbp)
      expect(listed).toContain(api.property.rate_plans["BAR-DBL"])
    }))
})

layer(TestApiLive, { excludeTestServices: true })("GET /rates: validation, scope, tenancy", (it) => {
  it.effect("names the failing query parameter", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      // Malformed queries (which the typed client would not send) on the wire; well-formed ones through the client.
      const bad = (params: Record<string, string | number | boolean>, param: string) =>
        Effect.map(api.get(query(params)), (res) => expectInvalid(res, param))
      const refused = (params: Query, param: string) => expectFailure(offers(api.client, params), InvalidParameters, param)
      yield* bad({ check_out: "2031-03-13", adults: 2 }, "check_in")
      yield* bad({ check_in: "2031-02-30", check_out: "2031-03-13", adults: 2 }, "check_in")
      yield* bad({ check_in: "2031-03-10", check_out: "13/03/2031", adults: 2 }, "check_out")
      yield* bad({ ...stay }, "adults")
      yield* bad({ ...stay, adults: 0 }, "adults")
      yield* bad({ ...stay, adults: 21 }, "adults")
      yield* bad({ ...stay, adults: "two" }, "adults")
      yield* bad({ ...stay, adults: 1.5 }, "adults")
      yield* bad({ ...stay, adults: 2, children: 21 }, "children")
      yield* bad({ ...stay, adults: 2, children: -1 }, "children")
      yield* bad({ ...stay, adults: 2, child_ages: "4,x" }, "child_ages")
      yield* bad({ ...stay, adults: 2, child_ages: "-1" }, "child_ages")
      yield* bad({ ...stay, adults: 2, child_ages: Array.from({ length: 21 }, () => "5").join(",") }, "child_ages")
      // the limits a hold has on the same inputs: ages 0 to 120, a code of at most 40 characters
      yield* bad({ ...stay, adults: 2, child_ages: "4,121" }, "child_ages")
      yield* bad({ ...stay, adults: 2, promo_code: "C".repeat(41) }, "promo_code")
      yield* bad({ ...stay, adults: 2, room_type_id: "not-a-uuid" }, "room_type_id")
      yield* bad({ ...stay, adults: 2, rate_plan_id: "42" }, "rate_plan_id")
      yield* bad({ ...stay, adults: 2, include_unavailable: "yes" }, "include_unavailable")
      yield* bad({ ...stay, adults: 2, include: "traces" }, "include")
      yield* bad({ ...stay, adults: 2, include: "" }, "include")
      yield* bad({ ...stay, adults: 2, include: "trace,lines" }, "include")
      // Date order and length of stay name check_out; the past names check_in.
      yield* refused({ check_in: "2031-03-10", check_out: "2031-03-10", adults: 2 }, "check_out")
      yield* refused({ check_in: "2031-03-10", check_out: "2031-03-09", adults: 2 }, "check_out")
      yield* refused({ check_in: "2031-03-01", check_out: "2031-04-01", adults: 2 }, "check_out")
      yield* refused({ check_in: "2020-03-01", check_out: "2020-03-03", adults: 2 }, "check_in")
      // 30 nights is allowed; 20 ages too.
      const month = yield* offers(api.client, { check_in: "2031-03-01", check_out: "2031-03-31", adults: 2 })
      expect(month.map((o) => o.nights.length)).toContain(30)
      const ages = Array.from({ length: 20 }, () => 5)
      const party = yield* offers(api.client, { ...stay, adults: 1, child_ages: ages, include_unavailable: true })
      expect(party.length).toBeGreaterThan(0)
    }))

  it.effect("an unknown room type or rate plan is its 404, after validation", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const missing = "00000000-0000-4000-8000-000000000000"
      yield* expectFailure(offers(api.client, { ...stay, adults: 2, room_type_id: missing }), RoomTypeNotFound)
      yield* expectFailure(offers(api.client, { ...stay, adults: 2, rate_plan_id: missing }), RatePlanNotFound)
      expectInvalid(yield* api.get(query({ ...stay, adults: 0, rate_plan_id: missing })), "adults")
    }))

  it.effect("needs catalog:read and a key", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = yield* api.createKey({ scopes: ["reservations:read", "rates:read"] })
      const denied = yield* expectFailure(offers(yield* api.clientFor(key), { ...stay, adults: 2 }), InsufficientScope)
      expect(denied.message).toContain("catalog:read")
      yield* expectFailure(offers(yield* api.clientFor(null), { ...stay, adults: 2 }), MissingApiKey)
    }))

  it.effect("sees only the key's property: another property's plans and room types are missing ones", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const other = yield* api.importProperty()
      const mine = (yield* offers(api.client, { ...stay, adults: 2 })).map((o) => o.rate_plan_id)
      for (const id of Object.values(other.rate_plans)) expect(mine).not.toContain(id)
      yield* expectFailure(offers(api.client, { ...stay, adults: 2, rate_plan_id: other.rate_plans["BAR-DBL"] }), RatePlanNotFound)
      yield* expectFailure(offers(api.client, { ...stay, adults: 2, room_type_id: other.room_types["DBL"] }), RoomTypeNotFound)
      // The other property's bookings do not take this property's rooms.
      yield* insertReservation(api.sql, other.property_id, {
        roomTypeId: other.room_types["STE"],
        ratePlanId: other.rate_plans["BAR-STE"],
        checkIn: "2031-03-10",
        checkOut: "2031-03-13",
        status: "confirmed"
      })
      const [suite] = yield* offers(api.client, { ...stay, adults: 2, room_type_id: api.property.room_types["STE"] })
      expect(suite.available).toBe(1)
    }))
})
