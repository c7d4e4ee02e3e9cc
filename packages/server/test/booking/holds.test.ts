import { expect, layer } from "@effect/vitest"
import { InvalidParameters } from "@hotel/domain"
import { HoldCreated } from "@hotel/api/booking/Api"
import * as Effect from "effect/Effect"
import {
  bookingRows,
  count,
  folioLines,
  getReservation,
  hold,
  holdBody,
  newGuest,
  planWithInclusions,
  postHold
} from "../utils/booking.js"
import { bodyAs, clientOf, expectFailure } from "../utils/client.js"
import { expectError } from "../utils/rateManagement.js"
import { insertPlan } from "../utils/sqlSeed.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"

// POST /holds: what a hold writes (the reservation, its folio priced line for line like
// GET /rates, its accommodation, entitlements and add-ons). Its refusals are in holds-checks.test.ts. Real time;
// every test books its own dates so that the fixture's three DBL rooms and one suite never run out across tests.

/** The BAR-DBL offer of `GET /rates` for two adults over `stay`. */
const dblOffer = (api: TestApiService, stay: { check_in: string; check_out: string }) =>
  Effect.map(
    api.client.rates.rates({ query: { ...stay, adults: 2, rate_plan_id: api.property.rate_plans["BAR-DBL"] } }),
    (offers) => offers.data[0]
  )

layer(TestApiLive, { excludeTestServices: true })("POST /holds", (it) => {
  it.effect("holds a room: 201, tentative, 15 minutes, priced exactly like GET /rates, line for line", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const stay = { check_in: "2031-03-10", check_out: "2031-03-13" }
      const offer = yield* dblOffer(api, stay)

      const before = Date.now()
      const res = yield* postHold(api, holdBody(api, guest, { ...stay, bed_config: "twin", special_notes: "Late arrival" }))
      expect(res.status, res.text).toBe(201)
      expect(res.headers.get("cache-control")).toBe("no-store")
      // The exact wire: these keys and no others.
      const body = bodyAs(res, HoldCreated)
      expect(Object.keys(body).sort()).toEqual(
        ["confirmation_code", "currency", "folio_id", "hold_expires_at", "reservation_id", "status", "total"]
      )
      expect(body.status).toBe("tentative")
      expect(body.currency).toBe("EUR")
      expect(body.total).toBe("393.60")
      expect(body.total).toBe(offer.total)
      expect(body.confirmation_code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/)
      expect(body.hold_expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      const expires = Date.parse(body.hold_expires_at)
      expect(expires).toBeGreaterThanOrEqual(before + 15 * 60_000 - 1000)
      expect(expires).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 1000)

      // The folio carries exactly the quote's lines, in the stay currency at the frozen rate.
      const lines = yield* folioLines(api.sql, body.folio_id)
      expect(lines.map((l) => ({ kind: l.kind, description: l.description, amount: Number(l.amount).toFixed(2) })))
        .toEqual(offer.lines)
      expect(new Set(lines.map((l) => l.currency))).toEqual(new Set(["EUR"]))
      expect(lines.every((l) => l.exchange_rate !== null && Number(l.exchange_rate) === 1)).toBe(true)

      const reservation = yield* getReservation(api, body.reservation_id)
      expect(reservation).toMatchObject({
        id: body.reservation_id,
        status: "tentative",
        guest_id: guest,
        check_in_date: "2031-03-10",
        check_out_date: "2031-03-13",
        room_type_id: api.property.room_types["DBL"],
        nightly_rate: "120.00",
        currency: "EUR",
        adults: 2,
        children: 0,
        number_of_guests: 2,
        bed_config: "twin",
        booking_source: "back_office",
        special_notes: "Late arrival",
        promo_code: null,
        total: "393.60",
        hold_expires_at: body.hold_expires_at,
        cancellation_reason: null,
        confirmation_code: body.confirmation_code,
        folio_id: body.folio_id,
        folio_balance: "393.60",
        balances: [{ currency: "EUR", charges: "393.60", payments: "0.00", balance: "393.60" }]
      })
      expect(reservation.accommodations).toEqual([{
        id: expect.any(String),
        room_id: null,
        room_type_id: api.property.room_types["DBL"],
        check_in_date: "2031-03-10",
        check_out_date: "2031-03-13",
        status: "tentative",
        nightly_rate: "120.00"
      }])
      // The hold counts against availability.
      expect((yield* dblOffer(api, stay)).available).toBe(2)
    }))

  it.effect("child_ages drive the price and are the child count; the total still equals the quote", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const stay = { check_in: "2031-03-17", check_out: "2031-03-20" }
      const held = yield* hold(api, holdBody(api, guest, { ...stay, children: 0, child_ages: [9] }))
      expect(held.total).toBe("441.30")
      const reservation = yield* getReservation(api, held.reservation_id)
      expect(reservation).toMatchObject({ adults: 2, children: 1, child_ages: [9], number_of_guests: 3 })
    }))

  it.effect("add-ons add their own lines (and tax) on top of the quoted lines, with validated modifier values", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const stay = { check_in: "2031-03-24", check_out: "2031-03-27" }
      const offer = yield* dblOffer(api, stay)
      // ids are case-insensitive: upper-case ones name the same room type, plan, guest and service
      const held = yield* hold(api, holdBody(api, guest.toUpperCase(), {
        ...stay,
        room_type_id: api.property.room_types["DBL"].toUpperCase(),
        rate_plan_id: api.property.rate_plans["BAR-DBL"].toUpperCase(),
        add_ons: [
          { service_id: api.property.services["BRK"], modifier_values: { diet: "vegan" }, quantity: 2 },
          { service_id: api.property.services["TRF"].toUpperCase(), modifier_values: { flight: "TP1234" } }
        ]
      }))
      // Breakfast 15.00 x 2 guests x 3 nights x 2 = 180.00 with 13% tax 23.40; transfer 45.00 per stay.
      expect(held.total).toBe("642.00")
      const lines = yield* folioLines(api.sql, held.folio_id)
      expect(lines.slice(0, offer.lines.length).map((l) => [l.kind, Number(l.amount).toFixed(2)]))
        .toEqual(offer.lines.map((l) => [l.kind, l.amount]))
      expect(lines.slice(offer.lines.length).map((l) => [l.kind, l.description, Number(l.amount).toFixed(2), l.revenue_category]))
        .toEqual([
          ["addon", "Breakfast x 2", "180.00", "fnb"],
          ["addon_tax", "Breakfast tax", "23.40", null],
          ["addon", "Airport transfer", "45.00", "excursions"]
        ])
      const addOns = yield* api.sql<{ quantity: number; modifier_values: unknown }>`
        SELECT quantity, modifier_values FROM reservation_add_ons
        WHERE reservation_id = ${held.reservation_id} ORDER BY position`.pipe(Effect.orDie)
      expect(addOns).toEqual([
        { quantity: 2, modifier_values: { diet: "vegan" } },
        { quantity: 1, modifier_values: { flight: "TP1234" } }
      ])
    }))

  it.effect("the plan's inclusions become the reservation's entitlements, multiplied by their frequency", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const plan = yield* planWithInclusions(api, "Breakfast included", [
        { label: "Breakfast", allocated_amount: "0.00", frequency: "perGuestPerNight", revenue_category: "fnb" },
        {
          label: "Spa credit",
          allocated_amount: "20.00",
          frequency: "perStay",
          inclusion_kind: "credit",
          revenue_category: "spa"
        }
      ])
      const held = yield* hold(
        api,
        holdBody(api, guest, { rate_plan_id: plan, check_in: "2031-04-01", check_out: "2031-04-03" })
      )
      const entitlements = yield* api.sql<
        { label: string; inclusion_kind: string; revenue_category: string; quantity: number; allowance: string }
      >`
        SELECT label, inclusion_kind, revenue_category, quantity, allowance::text AS allowance FROM entitlements
        WHERE reservation_id = ${held.reservation_id} ORDER BY position`.pipe(Effect.orDie)
      expect(entitlements.map((e) => [e.label, e.inclusion_kind, e.revenue_category, e.quantity, Number(e.allowance)]))
        .toEqual([["Breakfast", "perk", "fnb", 4, 0], ["Spa credit", "credit", "spa", 1, 20]])
      // Inclusions are not charged: 2 nights x 150, VAT 18.00, city tax 8.00.
      expect(held.total).toBe("326.00")
    }))

  it.effect("booking_source is the key's sales context", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const engine = yield* api.createKey({ context: "booking_engine" })
      const held = yield* hold(api, holdBody(api, guest, { check_in: "2031-04-07", check_out: "2031-04-08" }), {
        key: engine
      })
      expect((yield* getReservation(api, held.reservation_id)).booking_source).toBe("booking_engine")
    }))

  it.effect("a stay a chain of derivations prices above what one folio holds is 400 rate_plan_id, nothing written; /rates says why", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      let plan = yield* insertPlan(api.sql, api.property.property_id, api.property.room_types["DBL"], { base_price: "1000000000.00" })
      // each step multiplies by 11 (+1000%, the most a percent derivation takes): 1.46e13 EUR a night
      for (let i = 0; i < 4; i++) {
        plan = yield* insertPlan(api.sql, api.property.property_id, api.property.room_types["DBL"], {
          derived_from_id: plan,
          derivation_type: "percent",
          derivation_value: "1000"
        })
      }
      const stay = { rate_plan_id: plan, check_in: "2031-09-01", check_out: "2031-09-08" }
      yield* expectFailure(hold(api, holdBody(api, guest, stay)), InvalidParameters, "rate_plan_id")
      expect(yield* count(api.sql, "reservations", { column: "guest_id", value: guest })).toBe(0)
      // The quote of the same stay is exact, and not bookable: listed only with the unbookable ones, saying why.
      const query = { ...stay, adults: 2 }
      expect((yield* api.client.rates.rates({ query: query })).data).toEqual([])
      const [offer] = (yield* api.client.rates.rates({ query: { ...query, include_unavailable: true } })).data
      expect(offer).toMatchObject({ rate_plan_id: plan, total: "108636220000028.00", bookable: false, reasons: ["price_out_of_range"] })
    }))

  it.effect("scope reservations:write; an Idempotency-Key replays the hold instead of holding twice", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const readOnly = yield* api.createKey({ scopes: ["reservations:read"] })
      const body = holdBody(api, guest, { check_in: "2031-06-09", check_out: "2031-06-10" })
      const denied = yield* postHold(api, body, { key: readOnly })
      expectError(denied, 403, "permission", "insufficient_scope")
      expect(denied.text).toContain("reservations:write")

      const before = yield* bookingRows(api.sql)
      const keyed = yield* clientOf(api, { headers: { "Idempotency-Key": globalThis.crypto.randomUUID() } })
      const [first, firstRes] = yield* keyed.holds.create({ headers: {}, payload: body, responseMode: "decoded-and-response" })
      const [again, againRes] = yield* keyed.holds.create({ headers: {}, payload: body, responseMode: "decoded-and-response" })
      expect(firstRes.status).toBe(201)
      expect(againRes.status).toBe(201)
      expect(againRes.headers["idempotent-replayed"]).toBe("true")
      expect(again).toEqual(first)
      expect((yield* bookingRows(api.sql)).reservations).toBe(before.reservations + 1)
    }))

  it.effect("a USD plan on the EUR property: every line in USD at the frozen rate; balances per currency", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const stay = { check_in: "2031-06-16", check_out: "2031-06-19" }
      const held = yield* hold(api, holdBody(api, guest, { ...stay, rate_plan_id: api.property.rate_plans["USD-DBL"] }))
      expect(held.currency).toBe("USD")
      expect(held.total).toBe("426.44")
      const lines = yield* folioLines(api.sql, held.folio_id)
      expect(lines.map((l) => [l.kind, l.currency, Number(l.exchange_rate)])).toEqual([
        ["room", "USD", 0.92],
        ["room", "USD", 0.92],
        ["room", "USD", 0.92],
        ["tax", "USD", 0.92],
        ["tax", "USD", 0.92]
      ])
      const tentative = yield* getReservation(api, held.reservation_id)
      expect(tentative.balances).toEqual([{ currency: "USD", charges: "426.44", payments: "0.00", balance: "426.44" }])
      // Valued in EUR at the one frozen rate: 426.44 x 0.92 = 392.3248.
      expect(tentative.folio_balance).toBe("392.32")

      // A line in the base currency joins the folio: two entries, never added together.
      const addLine = (amount: string, currency: string, rate: string | null) =>
        api.sql`
          INSERT INTO folio_lines (folio_id, position, kind, description, amount, currency, exchange_rate, created_at)
          VALUES (${held.folio_id},
                  (SELECT max(position) + 1 FROM folio_lines WHERE folio_id = ${held.folio_id}),
                  'charge', 'Minibar', ${amount}, ${currency}, ${rate}, now())`.pipe(Effect.orDie)
      yield* addLine("10.00", "EUR", "1")
      const two = yield* getReservation(api, held.reservation_id)
      expect(two.balances).toEqual([
        { currency: "USD", charges: "426.44", payments: "0.00", balance: "426.44" },
        { currency: "EUR", charges: "10.00", payments: "0.00", balance: "10.00" }
      ])
      expect(two.folio_balance).toBe("402.32")
      // A line in a currency without a configured rate: the flat figure is null, the entries stay exact.
      yield* addLine("5.00", "GBP", null)
      const three = yield* getReservation(api, held.reservation_id)
      expect(three.folio_balance).toBeNull()
      expect(three.balances.map((b) => [b.currency, b.balance])).toEqual([["USD", "426.44"], ["EUR", "10.00"], ["GBP", "5.00"]])
      const listed = yield* api.client.reservationReads.list({ query: { guest_id: guest } })
      expect(listed.data[0].folio_balance).toBeNull()
    }))

})
