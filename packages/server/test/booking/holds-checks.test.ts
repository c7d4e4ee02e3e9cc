import { expect, layer } from "@effect/vitest"
import {
  GuestNotFound,
  InvalidParameters,
  NoAvailability,
  PartyTooLarge,
  RatePlanNotFound,
  RoomTypeNotFound,
  ServiceNotFound
} from "@hotel/domain"
import * as Effect from "effect/Effect"
import { bookingRows, getReservation, hold, holdBody, lastSuite, newGuest, postHold } from "../utils/booking.js"
import { expectFailure } from "../utils/client.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { insertInterval, insertPlan, insertPromoCode } from "../utils/sqlSeed.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// POST /holds: every rule and error, in the documented order of checks. Real time; every test books
// its own dates so that the fixture's three DBL rooms and one suite never run out across tests.

// Each refusal's wire (status, type, code, param) is asserted once below; the typed client checks the rest.
const notFoundPlan = <A, E, R>(call: Effect.Effect<A, E, R>) => expectFailure(call, RatePlanNotFound)

layer(TestApiLive, { excludeTestServices: true })("POST /holds: checks", (it) => {
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
        [{ ...base, add_ons: [{ service_id: trf, modifier_values: { flight: 123 } }] }, "add_ons[0].modifier_values.flight"],
        // text is checked like any text field: no half surrogate pair (Postgres' jsonb would refuse it: a 500)
        [{ ...base, add_ons: [{ service_id: trf, modifier_values: { flight: "TP\ud800" } }] }, "add_ons[0].modifier_values.flight"],
        // a key no JSON field name should hold is an unknown key, reported (printable), not dropped
        [{ ...base, add_ons: [{ service_id: brk, modifier_values: { "\u0000": "x" } }] }, "add_ons[0].modifier_values.?"]
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
      const call = hold(api, holdBody(api, guest, {
        check_in: "2031-04-14",
        check_out: "2031-04-16",
        add_ons: [{ service_id: api.property.services["BRK"] }, { service_id: spa.id }]
      }))
      yield* expectFailure(call, InvalidParameters, "add_ons[1].service_id")
    }))

  it.effect("referenced ids: 404 with the resource's code, another property's exactly like a missing one", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const other = yield* api.importProperty()
      const otherGuest = yield* newGuest(api, other.property_id)
      const base = holdBody(api, guest, { check_in: "2031-04-21", check_out: "2031-04-23" })
      // The wire of each code once; another property's id decodes to the same error.
      expectError(yield* postHold(api, { ...base, room_type_id: missingId }), 404, "not_found", "room_type_not_found")
      yield* expectFailure(hold(api, { ...base, room_type_id: other.room_types["DBL"] }), RoomTypeNotFound)
      expectError(yield* postHold(api, { ...base, rate_plan_id: missingId }), 404, "not_found", "rate_plan_not_found")
      yield* notFoundPlan(hold(api, { ...base, rate_plan_id: other.rate_plans["BAR-DBL"] }))
      expectError(yield* postHold(api, { ...base, guest_id: missingId }), 404, "not_found", "guest_not_found")
      yield* expectFailure(hold(api, { ...base, guest_id: otherGuest }), GuestNotFound)
      expectError(yield* postHold(api, { ...base, add_ons: [{ service_id: missingId }] }), 404, "not_found", "service_not_found")
      yield* expectFailure(hold(api, { ...base, add_ons: [{ service_id: other.services["BRK"] }] }), ServiceNotFound)
    }))

  it.effect("order of checks: validation, then ids, then party size, then visibility, then availability", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const suite = lastSuite(api)
      const base = holdBody(api, guest, { check_in: "2031-04-28", check_out: "2031-04-30" })
      // adults 21 is a field error, not party_too_large, even with unknown ids.
      expectInvalid(yield* postHold(api, { ...base, adults: 21, room_type_id: missingId }), "adults")
      // The dates' order is the service's check, still before the ids.
      yield* expectFailure(hold(api, { ...base, check_out: "2031-04-27", room_type_id: missingId }), InvalidParameters, "check_out")
      // Ids in order: room type, rate plan, guest, services.
      yield* expectFailure(
        hold(api, { ...base, room_type_id: missingId, rate_plan_id: missingId, guest_id: missingId }),
        RoomTypeNotFound
      )
      yield* notFoundPlan(hold(api, { ...base, rate_plan_id: missingId, guest_id: missingId }))
      yield* expectFailure(hold(api, { ...base, guest_id: missingId, add_ons: [{ service_id: missingId }] }), GuestNotFound)
      // An unknown guest comes before party_too_large; party_too_large before visibility.
      yield* expectFailure(hold(api, { ...base, guest_id: missingId, adults: 4 }), GuestNotFound)
      yield* expectFailure(hold(api, { ...base, adults: 4, rate_plan_id: api.property.rate_plans["BAR-STE"] }), PartyTooLarge)
      // Visibility before availability: sell the only suite, then ask for it on a plan of another room type.
      yield* hold(api, { ...base, ...suite })
      yield* notFoundPlan(hold(api, { ...base, room_type_id: suite.room_type_id }))
      yield* expectFailure(hold(api, { ...base, ...suite }), NoAvailability)
    }))

  it.effect("party_too_large: adults + children (child_ages when present) above max_occupancy, no param", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const base = holdBody(api, guest, { check_in: "2031-05-05", check_out: "2031-05-07" })
      // No param on the wire: the whole party is too large, not one field.
      expectError(yield* postHold(api, { ...base, adults: 4 }), 400, "invalid_request", "party_too_large")
      yield* expectFailure(hold(api, { ...base, adults: 2, children: 2 }), PartyTooLarge)
      yield* expectFailure(hold(api, { ...base, adults: 2, children: 0, child_ages: [3, 5] }), PartyTooLarge)
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

      yield* notFoundPlan(hold(api, { ...base, rate_plan_id: yield* plan({ is_active: false }) }))
      yield* notFoundPlan(hold(api, { ...base, rate_plan_id: yield* plan({ deleted: true }) }))
      yield* notFoundPlan(hold(api, { ...base, rate_plan_id: rate_plans["BAR-STE"] }))
      yield* notFoundPlan(hold(api, { ...base, rate_plan_id: yield* plan({ booking_window_end: "2020-12-31" }) }))
      yield* notFoundPlan(hold(api, { ...base, rate_plan_id: yield* plan({ stay_window_end: "2031-05-13" }) }))
      yield* notFoundPlan(hold(api, { ...base, rate_plan_id: yield* plan({ min_los: 4 }) }))
      yield* notFoundPlan(hold(api, { ...base, rate_plan_id: yield* plan({ max_los: 2 }) }))
      const withInterval = (seed: Parameters<typeof insertInterval>[3]) =>
        Effect.gen(function*() {
          const id = yield* plan({})
          yield* insertInterval(api.sql, property_id, id, seed)
          return id
        })
      yield* notFoundPlan(hold(api, {
        ...base,
        rate_plan_id: yield* withInterval({ start_date: "2031-05-12", end_date: "2031-05-13", closed_to_arrival: true })
      }))
      yield* notFoundPlan(hold(api, {
        ...base,
        rate_plan_id: yield* withInterval({ start_date: "2031-05-15", end_date: "2031-05-16", closed_to_departure: true })
      }))
      yield* notFoundPlan(hold(api, {
        ...base,
        rate_plan_id: yield* withInterval({ start_date: "2031-05-13", end_date: "2031-05-14", stop_sell: true })
      }))
      yield* notFoundPlan(hold(api, {
        ...base,
        rate_plan_id: yield* withInterval({ start_date: "2031-05-01", end_date: "2031-06-01", min_stay: 5 })
      }))
      // A derived plan passes its parent's rules too.
      const closedParent = yield* plan({ booking_window_end: "2020-12-31" })
      yield* notFoundPlan(hold(api, {
        ...base,
        rate_plan_id: yield* plan({ derived_from_id: closedParent, derivation_type: "percent", derivation_value: "-10" })
      }))

      // Sales context: a channel key does not see a plan not active for channels.
      const channel = yield* api.createKey({ context: "channel" })
      const engine = yield* api.createKey({ context: "booking_engine" })
      const engineOnly = yield* plan({ active_for_channels: false, active_for_booking_engine: true })
      yield* notFoundPlan(hold(api, { ...base, rate_plan_id: engineOnly }, { key: channel }))
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
      yield* notFoundPlan(hold(api, base))
      yield* notFoundPlan(hold(api, { ...base, promo_code: "" }))
      yield* notFoundPlan(hold(api, { ...base, promo_code: "WINTER" }))
      yield* notFoundPlan(hold(api, { ...base, promo_code: "OLD" }))
      yield* notFoundPlan(hold(api, { ...base, promo_code: "OFF" }))
      const held = yield* hold(api, { ...base, promo_code: "spring" })
      const reservation = yield* getReservation(api, held.reservation_id)
      expect(reservation.promo_code).toBe("SPRING")
      const [frozen] = yield* api.sql<{ promo_code_id: string }>`
        SELECT promo_code_id FROM reservations WHERE id = ${held.reservation_id}`.pipe(Effect.orDie)
      expect(frozen.promo_code_id).toBe(code)
      // max_per_guest 1: the same guest again is refused, another guest is not.
      yield* notFoundPlan(hold(api, { ...base, promo_code: "SPRING" }))
      yield* hold(api, { ...base, guest_id: otherGuest, promo_code: "SPRING" })
      // A code sent to a plan that needs none is ignored (and not recorded).
      const plain = yield* hold(api, holdBody(api, guest, { ...stay, promo_code: "SPRING" }))
      expect((yield* getReservation(api, plain.reservation_id)).promo_code).toBeNull()
    }))

  it.effect("with a promo code (checked after the locks) the order holds: an unknown guest is 404, never 500", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const other = yield* api.importProperty()
      const otherGuest = yield* newGuest(api, other.property_id)
      const { property_id, room_types } = api.property
      const gated = yield* insertPlan(api.sql, property_id, room_types["DBL"], {
        requires_promo_code: true,
        kind: "promotion"
      })
      yield* insertPromoCode(api.sql, property_id, gated, { code: "LOCKED" })
      const stay = { check_in: "2031-05-26", check_out: "2031-05-28" }
      const base = holdBody(api, guest, { ...stay, rate_plan_id: gated, promo_code: "locked" })
      const guestMissing = <A, E, R>(call: Effect.Effect<A, E, R>) => expectFailure(call, GuestNotFound)
      const before = yield* bookingRows(api.sql)
      yield* guestMissing(hold(api, { ...base, guest_id: missingId }))
      yield* guestMissing(hold(api, { ...base, guest_id: otherGuest }))
      yield* guestMissing(hold(api, { ...base, guest_id: missingId, adults: 4 }))
      yield* expectFailure(hold(api, { ...base, room_type_id: missingId, guest_id: missingId }), RoomTypeNotFound)
      yield* notFoundPlan(hold(api, { ...base, rate_plan_id: missingId, guest_id: missingId }))
      yield* expectFailure(hold(api, { ...base, adults: 4 }), PartyTooLarge)
      expect(yield* bookingRows(api.sql)).toEqual(before)
      yield* hold(api, base)
    }))

  it.effect("409 no_availability when the room type is sold out for some night of the stay", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const suite = lastSuite(api)
      yield* hold(api, holdBody(api, guest, { ...suite, check_in: "2031-06-03", check_out: "2031-06-05" }))
      const before = yield* bookingRows(api.sql)
      // Overlapping the last night only.
      const res = yield* postHold(api, holdBody(api, guest, { ...suite, check_in: "2031-06-04", check_out: "2031-06-06" }))
      expectError(res, 409, "conflict", "no_availability")
      expect(yield* bookingRows(api.sql)).toEqual(before)
      // Back to back is fine: check-out day is not a night of the stay.
      yield* hold(api, holdBody(api, guest, { ...suite, check_in: "2031-06-05", check_out: "2031-06-06" }))
    }))
})
