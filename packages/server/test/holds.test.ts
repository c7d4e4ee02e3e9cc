import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import {
  bookingRows,
  folioLines,
  getReservation,
  hold,
  holdBody,
  type HoldResponse,
  importRoomTypes,
  newGuest,
  postHold
} from "./utils/booking.js"
import type { ApiResponse } from "./utils/http.js"
import { expectError, expectInvalid, missingId } from "./utils/rateManagement.js"
import { insertInterval, insertPlan, insertPromoCode } from "./utils/sqlSeed.js"
import { TestApi, TestApiLive } from "./utils/TestServer.js"

// POST /holds (interface 4.5): every rule and error, in the order of decisions 1. Real time; every test books
// its own dates so that the fixture's three DBL rooms and one suite never run out across tests.

interface Offer {
  readonly total: string
  readonly lines: ReadonlyArray<{ kind: string; description: string; amount: string }>
}

const ratesQuery = (params: Record<string, string | number>) =>
  `/rates?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`

const notFoundPlan = (res: ApiResponse) => expectError(res, 404, "not_found", "rate_plan_not_found")

layer(TestApiLive, { excludeTestServices: true })("POST /holds", (it) => {
  it.effect("holds a room: 201, tentative, 15 minutes, priced exactly like GET /rates, line for line", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const stay = { check_in: "2031-03-10", check_out: "2031-03-13" }
      const quote = yield* api.get(ratesQuery({ ...stay, adults: 2, rate_plan_id: api.property.rate_plans["BAR-DBL"] }))
      const [offer] = quote.json<{ data: ReadonlyArray<Offer> }>().data

      const before = Date.now()
      const res = yield* postHold(api, holdBody(api, guest, { ...stay, bed_config: "twin", special_notes: "Late arrival" }))
      expect(res.status, res.text).toBe(201)
      expect(res.headers.get("cache-control")).toBe("no-store")
      const body = res.json<HoldResponse>()
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
      const after = yield* api.get(ratesQuery({ ...stay, adults: 2, rate_plan_id: api.property.rate_plans["BAR-DBL"] }))
      expect(after.json<{ data: ReadonlyArray<{ available: number }> }>().data[0].available).toBe(2)
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
      const quote = yield* api.get(ratesQuery({ ...stay, adults: 2, rate_plan_id: api.property.rate_plans["BAR-DBL"] }))
      const [offer] = quote.json<{ data: ReadonlyArray<Offer> }>().data
      const held = yield* hold(api, holdBody(api, guest, {
        ...stay,
        add_ons: [
          { service_id: api.property.services["BRK"], modifier_values: { diet: "vegan" }, quantity: 2 },
          { service_id: api.property.services["TRF"], modifier_values: { flight: "TP1234" } }
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
      const plan = yield* insertPlan(api.sql, api.property.property_id, api.property.room_types["DBL"], {
        name: "Breakfast included",
        base_price: "150.00"
      })
      const replaced = yield* api.post(`/rate-plans/${plan}/inclusions`, {
        inclusions: [
          { label: "Breakfast", allocated_amount: "0.00", frequency: "perGuestPerNight", revenue_category: "fnb" },
          {
            label: "Spa credit",
            allocated_amount: "20.00",
            frequency: "perStay",
            inclusion_kind: "credit",
            revenue_category: "spa"
          }
        ]
      })
      expect(replaced.status, replaced.text).toBe(200)
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

  it.effect("field validation: 400 invalid_parameters naming the field as sent", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const base = holdBody(api, guest, { check_in: "2031-04-14", check_out: "2031-04-16" })
      const { room_type_id: _r, ...withoutRoomType } = base
      const brk = api.property.services["BRK"]
      const trf = api.property.services["TRF"]
      const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
        [withoutRoomType, "room_type_id"],
        [{ ...base, room_type_id: "DBL" }, "room_type_id"],
        [{ ...base, rate_plan_id: 7 }, "rate_plan_id"],
        [{ ...base, guest_id: "guest-1" }, "guest_id"],
        [{ ...base, check_in: "2031-02-30" }, "check_in"],
        [{ ...base, check_out: "14/04/2031" }, "check_out"],
        [{ ...base, check_out: "2031-04-14" }, "check_out"],
        [{ ...base, check_out: "2031-04-13" }, "check_out"],
        [{ ...base, check_out: "2031-05-15" }, "check_out"],
        [{ ...base, check_in: "2020-01-01", check_out: "2020-01-03" }, "check_in"],
        [{ ...base, adults: 0 }, "adults"],
        [{ ...base, adults: 21 }, "adults"],
        [{ ...base, adults: 1.5 }, "adults"],
        [{ ...base, adults: "2" }, "adults"],
        [{ ...base, children: 21 }, "children"],
        [{ ...base, children: -1 }, "children"],
        [{ ...base, child_ages: [4, -1] }, "child_ages[1]"],
        [{ ...base, child_ages: Array.from({ length: 21 }, () => 5) }, "child_ages"],
        [{ ...base, child_ages: "4,9" }, "child_ages"],
        [{ ...base, bed_config: "queen" }, "bed_config"],
        [{ ...base, bed_config: "" }, "bed_config"],
        [{ ...base, special_notes: 12 }, "special_notes"],
        [{ ...base, add_ons: Array.from({ length: 11 }, () => ({ service_id: brk })) }, "add_ons"],
        [{ ...base, add_ons: [{ service_id: brk, quantity: 0 }] }, "add_ons[0].quantity"],
        [{ ...base, add_ons: [{ service_id: brk }, { service_id: brk, quantity: 100 }] }, "add_ons[1].quantity"],
        [{ ...base, add_ons: [{ service_id: "x" }] }, "add_ons[0].service_id"],
        [{ ...base, add_ons: [{ quantity: 1 }] }, "add_ons[0].service_id"],
        [{ ...base, add_ons: [{ service_id: brk, modifier_values: [1] }] }, "add_ons[0].modifier_values"],
        [{ ...base, add_ons: [{ service_id: brk, modifier_values: { diet: "keto" } }] }, "add_ons[0].modifier_values.diet"],
        [{ ...base, add_ons: [{ service_id: brk, modifier_values: { diet: 1 } }] }, "add_ons[0].modifier_values.diet"],
        [{ ...base, add_ons: [{ service_id: brk, modifier_values: { spice: "hot" } }] }, "add_ons[0].modifier_values.spice"],
        [{ ...base, add_ons: [{ service_id: brk }, { service_id: trf }] }, "add_ons[1].modifier_values.flight"],
        [{ ...base, add_ons: [{ service_id: trf, modifier_values: { flight: 123 } }] }, "add_ons[0].modifier_values.flight"]
      ]
      const before = yield* bookingRows(api.sql)
      for (const [body, param] of cases) {
        const res = yield* postHold(api, body)
        expect(res.status, `${param}: ${res.text}`).toBe(400)
        expectInvalid(res, param)
      }
      // A body that is not an object, and an empty body.
      expectError(yield* api.request("POST", "/holds", { raw: "[1]" }), 400, "invalid_request", "invalid_parameters")
      expectError(yield* api.request("POST", "/holds", { raw: "{" }), 400, "invalid_request", "invalid_json")
      expectInvalid(yield* api.request("POST", "/holds", { raw: "" }), "room_type_id")
      // Optional fields accept null like absent; nothing half-written by any failure above.
      expect(yield* bookingRows(api.sql)).toEqual(before)
      yield* hold(api, { ...base, children: null, child_ages: null, bed_config: null, add_ons: null, promo_code: null })
    }))

  it.effect("a service that is not guest-bookable is 400 on add_ons[i].service_id", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const [spa] = yield* api.sql<{ id: string }>`
        INSERT INTO services (property_id, code, name, price, pricing_unit, revenue_category, guest_bookable)
        VALUES (${api.property.property_id}, 'STAFF', 'Staff-only service', '10', 'perStay', 'other', false)
        RETURNING id`.pipe(Effect.orDie)
      const res = yield* postHold(api, holdBody(api, guest, {
        check_in: "2031-04-14",
        check_out: "2031-04-16",
        add_ons: [{ service_id: api.property.services["BRK"] }, { service_id: spa.id }]
      }))
      expectInvalid(res, "add_ons[1].service_id")
    }))

  it.effect("referenced ids: 404 with the resource's code, another property's exactly like a missing one", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const other = yield* api.importProperty()
      const otherGuest = yield* newGuest(api, other.property_id)
      const base = holdBody(api, guest, { check_in: "2031-04-21", check_out: "2031-04-23" })
      const roomType = (res: ApiResponse) => expectError(res, 404, "not_found", "room_type_not_found")
      roomType(yield* postHold(api, { ...base, room_type_id: missingId }))
      roomType(yield* postHold(api, { ...base, room_type_id: other.room_types["DBL"] }))
      notFoundPlan(yield* postHold(api, { ...base, rate_plan_id: missingId }))
      notFoundPlan(yield* postHold(api, { ...base, rate_plan_id: other.rate_plans["BAR-DBL"] }))
      const guestMissing = (res: ApiResponse) => expectError(res, 404, "not_found", "guest_not_found")
      guestMissing(yield* postHold(api, { ...base, guest_id: missingId }))
      guestMissing(yield* postHold(api, { ...base, guest_id: otherGuest }))
      const service = (res: ApiResponse) => expectError(res, 404, "not_found", "service_not_found")
      service(yield* postHold(api, { ...base, add_ons: [{ service_id: missingId }] }))
      service(yield* postHold(api, { ...base, add_ons: [{ service_id: other.services["BRK"] }] }))
    }))

  it.effect("order of checks: validation, then ids, then party size, then visibility, then availability", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const suite = api.property.room_types["STE"]
      const base = holdBody(api, guest, { check_in: "2031-04-28", check_out: "2031-04-30" })
      // adults 21 is a field error, not party_too_large, even with unknown ids.
      expectInvalid(yield* postHold(api, { ...base, adults: 21, room_type_id: missingId }), "adults")
      expectInvalid(yield* postHold(api, { ...base, check_out: "2031-04-27", room_type_id: missingId }), "check_out")
      // Ids in order: room type, rate plan, guest, services.
      expectError(
        yield* postHold(api, { ...base, room_type_id: missingId, rate_plan_id: missingId, guest_id: missingId }),
        404,
        "not_found",
        "room_type_not_found"
      )
      expectError(
        yield* postHold(api, { ...base, rate_plan_id: missingId, guest_id: missingId }),
        404,
        "not_found",
        "rate_plan_not_found"
      )
      expectError(
        yield* postHold(api, { ...base, guest_id: missingId, add_ons: [{ service_id: missingId }] }),
        404,
        "not_found",
        "guest_not_found"
      )
      // An unknown guest comes before party_too_large; party_too_large before visibility.
      expectError(yield* postHold(api, { ...base, guest_id: missingId, adults: 4 }), 404, "not_found", "guest_not_found")
      expectError(
        yield* postHold(api, { ...base, adults: 4, rate_plan_id: api.property.rate_plans["BAR-STE"] }),
        400,
        "invalid_request",
        "party_too_large"
      )
      // Visibility before availability: sell the only suite, then ask for it on a plan of another room type.
      yield* hold(api, { ...base, room_type_id: suite, rate_plan_id: api.property.rate_plans["BAR-STE"] })
      notFoundPlan(yield* postHold(api, { ...base, room_type_id: suite }))
      expectError(
        yield* postHold(api, { ...base, room_type_id: suite, rate_plan_id: api.property.rate_plans["BAR-STE"] }),
        409,
        "conflict",
        "no_availability"
      )
    }))

  it.effect("party_too_large: adults + children (child_ages when present) above max_occupancy, no param", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const base = holdBody(api, guest, { check_in: "2031-05-05", check_out: "2031-05-07" })
      const tooLarge = (res: ApiResponse) => expectError(res, 400, "invalid_request", "party_too_large")
      tooLarge(yield* postHold(api, { ...base, adults: 4 }))
      tooLarge(yield* postHold(api, { ...base, adults: 2, children: 2 }))
      tooLarge(yield* postHold(api, { ...base, adults: 2, children: 0, child_ages: [3, 5] }))
      // child_ages is authoritative: an empty list means no children whatever `children` says.
      const held = yield* hold(api, { ...base, adults: 2, children: 5, child_ages: [] })
      expect((yield* getReservation(api, held.reservation_id)).children).toBe(0)
      yield* hold(api, { ...base, adults: 3 })
    }))

  it.effect("visibility: an excluded plan is 404 rate_plan_not_found", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const { property_id, rate_plans, room_types } = api.property
      const dbl = room_types["DBL"]
      const stay = { check_in: "2031-05-12", check_out: "2031-05-15" }
      const base = holdBody(api, guest, stay)
      const plan = (seed: Parameters<typeof insertPlan>[3]) => insertPlan(api.sql, property_id, dbl, seed)

      notFoundPlan(yield* postHold(api, { ...base, rate_plan_id: yield* plan({ is_active: false }) }))
      notFoundPlan(yield* postHold(api, { ...base, rate_plan_id: yield* plan({ deleted: true }) }))
      notFoundPlan(yield* postHold(api, { ...base, rate_plan_id: rate_plans["BAR-STE"] }))
      notFoundPlan(yield* postHold(api, { ...base, rate_plan_id: yield* plan({ booking_window_end: "2020-12-31" }) }))
      notFoundPlan(yield* postHold(api, { ...base, rate_plan_id: yield* plan({ stay_window_end: "2031-05-13" }) }))
      notFoundPlan(yield* postHold(api, { ...base, rate_plan_id: yield* plan({ min_los: 4 }) }))
      notFoundPlan(yield* postHold(api, { ...base, rate_plan_id: yield* plan({ max_los: 2 }) }))
      const withInterval = (seed: Parameters<typeof insertInterval>[3]) =>
        Effect.gen(function*() {
          const id = yield* plan({})
          yield* insertInterval(api.sql, property_id, id, seed)
          return id
        })
      notFoundPlan(yield* postHold(api, {
        ...base,
        rate_plan_id: yield* withInterval({ start_date: "2031-05-12", end_date: "2031-05-13", closed_to_arrival: true })
      }))
      notFoundPlan(yield* postHold(api, {
        ...base,
        rate_plan_id: yield* withInterval({ start_date: "2031-05-15", end_date: "2031-05-16", closed_to_departure: true })
      }))
      notFoundPlan(yield* postHold(api, {
        ...base,
        rate_plan_id: yield* withInterval({ start_date: "2031-05-13", end_date: "2031-05-14", stop_sell: true })
      }))
      notFoundPlan(yield* postHold(api, {
        ...base,
        rate_plan_id: yield* withInterval({ start_date: "2031-05-01", end_date: "2031-06-01", min_stay: 5 })
      }))
      // A derived plan passes its parent's rules too.
      const closedParent = yield* plan({ booking_window_end: "2020-12-31" })
      notFoundPlan(yield* postHold(api, {
        ...base,
        rate_plan_id: yield* plan({ derived_from_id: closedParent, derivation_type: "percent", derivation_value: "-10" })
      }))

      // Sales context: a channel key does not see a plan not active for channels.
      const channel = yield* api.createKey({ context: "channel" })
      const engine = yield* api.createKey({ context: "booking_engine" })
      const engineOnly = yield* plan({ active_for_channels: false, active_for_booking_engine: true })
      notFoundPlan(yield* postHold(api, { ...base, rate_plan_id: engineOnly }, { key: channel }))
      yield* hold(api, { ...base, rate_plan_id: engineOnly }, { key: engine })
    }))

  it.effect("promo-gated plans: the code is required, matched case-insensitively, and must be redeemable", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const otherGuest = yield* newGuest(api)
      const { property_id, room_types } = api.property
      const stay = { check_in: "2031-05-19", check_out: "2031-05-21" }
      const gated = yield* insertPlan(api.sql, property_id, room_types["DBL"], {
        requires_promo_code: true,
        kind: "promotion"
      })
      const code = yield* insertPromoCode(api.sql, property_id, gated, { code: "SPRING", max_per_guest: 1 })
      yield* insertPromoCode(api.sql, property_id, gated, { code: "OLD", valid_to: "2021-01-01" })
      yield* insertPromoCode(api.sql, property_id, gated, { code: "OFF", is_active: false })
      const base = holdBody(api, guest, { ...stay, rate_plan_id: gated })
      notFoundPlan(yield* postHold(api, base))
      notFoundPlan(yield* postHold(api, { ...base, promo_code: "" }))
      notFoundPlan(yield* postHold(api, { ...base, promo_code: "WINTER" }))
      notFoundPlan(yield* postHold(api, { ...base, promo_code: "OLD" }))
      notFoundPlan(yield* postHold(api, { ...base, promo_code: "OFF" }))
      const held = yield* hold(api, { ...base, promo_code: "spring" })
      const reservation = yield* getReservation(api, held.reservation_id)
      expect(reservation.promo_code).toBe("SPRING")
      const [frozen] = yield* api.sql<{ promo_code_id: string }>`
        SELECT promo_code_id FROM reservations WHERE id = ${held.reservation_id}`.pipe(Effect.orDie)
      expect(frozen.promo_code_id).toBe(code)
      // max_per_guest 1: the same guest again is refused, another guest is not.
      notFoundPlan(yield* postHold(api, { ...base, promo_code: "SPRING" }))
      yield* hold(api, { ...base, guest_id: otherGuest, promo_code: "SPRING" })
      // A code sent to a plan that needs none is ignored (and not recorded).
      const plain = yield* hold(api, holdBody(api, guest, { ...stay, promo_code: "SPRING" }))
      expect((yield* getReservation(api, plain.reservation_id)).promo_code).toBeNull()
    }))

  it.effect("409 no_availability when the room type is sold out for some night of the stay", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const suite = {
        room_type_id: api.property.room_types["STE"],
        rate_plan_id: api.property.rate_plans["BAR-STE"]
      }
      yield* hold(api, holdBody(api, guest, { ...suite, check_in: "2031-06-03", check_out: "2031-06-05" }))
      const before = yield* bookingRows(api.sql)
      // Overlapping the last night only.
      const res = yield* postHold(api, holdBody(api, guest, { ...suite, check_in: "2031-06-04", check_out: "2031-06-06" }))
      expectError(res, 409, "conflict", "no_availability")
      expect(yield* bookingRows(api.sql)).toEqual(before)
      // Back to back is fine: check-out day is not a night of the stay.
      yield* hold(api, holdBody(api, guest, { ...suite, check_in: "2031-06-05", check_out: "2031-06-06" }))
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
      const headers = { "Idempotency-Key": globalThis.crypto.randomUUID() }
      const first = yield* postHold(api, body, { headers })
      const again = yield* postHold(api, body, { headers })
      expect(first.status).toBe(201)
      expect(again.status).toBe(201)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.json()).toEqual(first.json())
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
      const listed = yield* api.get(`/reservations?guest_id=${guest}`)
      expect(listed.json<{ data: ReadonlyArray<{ folio_balance: string | null }> }>().data[0].folio_balance).toBeNull()
    }))

  it.effect("GET /reservations pages through every reservation exactly once, in check-in order", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { imported, key } = yield* importRoomTypes(api, { A: 3, B: 3 })
      const guest = yield* newGuest(api, imported.property_id)
      const created: Array<string> = []
      const nights = ["2031-07-09", "2031-07-02", "2031-07-05", "2031-07-02", "2031-07-20", "2031-07-05", "2031-07-01"]
      for (const [i, checkIn] of nights.entries()) {
        const rt = i % 2 === 0 ? "A" : "B"
        const day = Number(checkIn.slice(8)) + 1
        const held = yield* hold(api, {
          room_type_id: imported.room_types[rt],
          rate_plan_id: imported.rate_plans[`BAR-${rt}`],
          check_in: checkIn,
          check_out: `2031-07-${String(day).padStart(2, "0")}`,
          guest_id: guest,
          adults: 1
        }, { key })
        created.push(held.reservation_id)
      }
      for (const limit of [1, 2, 3, 7, 25]) {
        const seen: Array<{ id: string; check_in_date: string }> = []
        for (let offset = 0;; offset += limit) {
          const res = yield* api.get(`/reservations?limit=${limit}&offset=${offset}`, { key })
          expect(res.status, res.text).toBe(200)
          const page = res.json<{ has_more: boolean; data: ReadonlyArray<{ id: string; check_in_date: string }> }>()
          expect(page.data.length).toBeLessThanOrEqual(limit)
          seen.push(...page.data)
          if (!page.has_more) break
        }
        expect(seen.map((r) => r.id).sort()).toEqual([...created].sort())
        expect(new Set(seen.map((r) => r.id)).size).toBe(created.length)
        const dates = seen.map((r) => r.check_in_date)
        expect(dates).toEqual([...dates].sort())
      }
      const tentative = yield* api.get(`/reservations?status=tentative&guest_id=${guest}&limit=100`, { key })
      expect(tentative.json<{ data: ReadonlyArray<unknown> }>().data).toHaveLength(created.length)
    }))
})
