import { expect, layer } from "@effect/vitest"
import { HoldExpired, InvalidParameters, NotModifiable, RatePlanNotFound, ReservationNotFound, RoomTypeNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { allEvents } from "../events/feed.js"
import { cancel, folioLines, getReservation, lastSuite } from "../utils/booking.js"
import { expectFailure } from "../utils/client.js"
import { change, changeQuote } from "../utils/changes.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { insertInterval, insertPlan, insertPromoCode } from "../utils/sqlSeed.js"
import { book } from "../utils/stay.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// GET /reservations/{id}/change-quote: what the PATCH with the same values would do now, changing nothing.

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

layer(TestApiLive)("GET /reservations/{id}/change-quote", (it) => {
  it.effect("changes nothing, and is the change it predicts line for line (add-ons re-priced over the new stay)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const addOns = [{ service_id: api.property.services["BRK"], modifier_values: { diet: "vegan" }, quantity: 1 }]
      const booked = yield* book(api, { check_in: "2031-03-10", check_out: "2031-03-12", add_ons: addOns })
      const before = yield* getReservation(api, booked.reservation_id)
      const lines = yield* folioLines(api.sql, booked.folio_id)
      const [last] = (yield* allEvents(api)).slice(-1)
      const values = { ...lastSuite(api), check_out: "2031-03-13", adults: 3 }
      const quote = yield* changeQuote(api, booked.reservation_id, values)
      expect(yield* getReservation(api, booked.reservation_id)).toEqual(before)
      expect(yield* folioLines(api.sql, booked.folio_id)).toEqual(lines)
      expect(yield* allEvents(api, undefined, { after: last.id })).toEqual([])
      // Suite 250.00 + an extra adult 40.00, three nights; breakfast 15.00 x 3 guests x 3 nights with 13% tax.
      expect(quote.lines.map((l) => [l.kind, l.amount])).toEqual([
        ["room", "290.00"], ["room", "290.00"], ["room", "290.00"], ["tax", "52.20"], ["tax", "18.00"],
        ["addon", "135.00"], ["addon_tax", "17.55"]
      ])
      expect(quote.nights.every((n) => !n.kept && n.trace === undefined)).toBe(true)
      const traced = yield* changeQuote(api, booked.reservation_id, { ...values, include: "trace" })
      expect(traced.nights.every((n) => !n.kept && (n.trace ?? []).length > 0)).toBe(true)
      expect({ ...traced, nights: traced.nights.map(({ trace: _, ...night }) => night) }).toEqual(quote)
      expect(quote).toMatchObject({ total: "1092.75", amount_due: quote.difference, refund_due_minor: 0, bookable: true })

      const changed = yield* change(api, booked.reservation_id, values)
      expect(changed.total).toBe(quote.total)
      expect(changed.folio_balance).toBe(quote.amount_due)
      const after = yield* folioLines(api.sql, booked.folio_id)
      const stay = lines.filter((l) => l.kind !== "payment").length
      expect(after.slice(lines.length + stay).map((l) => [l.kind, l.description, Number(l.amount).toFixed(2)]))
        .toEqual(quote.lines.map((l) => [l.kind, l.description, l.amount]))
    }))

  it.effect("what /rates reports as a reason is a reason here; the PATCH refuses it (404 or 409)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-04-10", check_out: "2031-04-12" })
      const id = booked.reservation_id
      yield* book(api, { ...lastSuite(api), check_in: "2031-04-10", check_out: "2031-04-11" })
      expect(yield* changeQuote(api, id, lastSuite(api))).toMatchObject({ bookable: false, reasons: ["sold_out"] })
      expect(yield* changeQuote(api, id, { adults: 4 })).toMatchObject({ bookable: false, reasons: ["party_too_large"] })
      const dbl = api.property.room_types["DBL"]
      const coded = yield* insertPlan(api.sql, api.property.property_id, dbl, { requires_promo_code: true, min_los: 3 })
      yield* insertPromoCode(api.sql, api.property.property_id, coded, { code: "ONCE", max_redemptions: 1 })
      const refused = yield* changeQuote(api, id, { rate_plan_id: coded })
      expect(refused).toMatchObject({ bookable: false, reasons: ["min_stay", "promo_code_required"] })
      yield* expectFailure(change(api, id, { rate_plan_id: coded }), RatePlanNotFound)
      // A stop-sell night of the current plan is a reason when the dates change.
      yield* insertInterval(api.sql, api.property.property_id, api.property.rate_plans["BAR-DBL"], {
        start_date: "2031-04-12",
        end_date: "2031-04-13",
        stop_sell: true
      })
      expect(yield* changeQuote(api, id, { check_out: "2031-04-13" })).toMatchObject({ reasons: ["stop_sell"] })
      // The code's only redemption is this reservation's own: re-checking it does not count it twice.
      const promo = yield* change(api, id, { rate_plan_id: coded, promo_code: "once", check_out: "2031-04-14", check_in: "2031-04-11" })
      expect(promo.promo_code).toBe("ONCE")
      expect(yield* changeQuote(api, id, { check_in: "2031-04-14", check_out: "2031-04-17" })).toMatchObject({ bookable: true })
    }))

  it.effect("the refusals that are not about the stay are the PATCH's own errors", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-05-10", check_out: "2031-05-12" })
      const path = `/reservations/${booked.reservation_id}/change-quote`
      expectInvalid(yield* api.get(`${path}?adults=0`), "adults")
      yield* expectFailure(changeQuote(api, booked.reservation_id, { check_out: "2031-05-10" }), InvalidParameters, "check_out")
      expectInvalid(yield* api.get(`${path}?check_in=2031-13-01`), "check_in")
      expectInvalid(yield* api.get(`${path}?include=lines`), "include")
      expectError(yield* api.get("/reservations/nope/change-quote"), 404, "not_found", "reservation_not_found")
      yield* expectFailure(changeQuote(api, missingId), ReservationNotFound)
      yield* expectFailure(changeQuote(api, booked.reservation_id, { room_type_id: missingId }), RoomTypeNotFound)
      const channel = yield* api.createKey({ context: "channel" })
      yield* expectFailure(changeQuote(api, booked.reservation_id, lastSuite(api), { key: channel }), RatePlanNotFound)
      const reader = yield* api.createKey({ scopes: ["reservations:read"] })
      expect((yield* changeQuote(api, booked.reservation_id, {}, { key: reader })).bookable).toBe(true)
      expect((yield* api.get(path)).headers.get("cache-control")).toBe("no-store")
      yield* cancel(api, booked.reservation_id)
      yield* expectFailure(changeQuote(api, booked.reservation_id), NotModifiable)
      const held = yield* book(api, { check_in: "2031-05-10", check_out: "2031-05-12" }, { tentative: true })
      yield* at("2031-02-01T11:00:00Z")
      yield* expectFailure(changeQuote(api, held.reservation_id), HoldExpired)
      yield* expectFailure(changeQuote(api, booked.reservation_id, { adults: 1 }), NotModifiable)
    }))
})
