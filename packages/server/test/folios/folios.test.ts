import { expect, layer } from "@effect/vitest"
import { FolioNotFound, InsufficientScope, MissingApiKey } from "@hotel/domain"
import { FolioView } from "@hotel/api/folios/Api"
import * as Effect from "effect/Effect"
import { cancel, confirm, getReservation, hold, holdBody, newGuest } from "../utils/booking.js"
import { bodyAs, expectFailure } from "../utils/client.js"
import { expectError, missingId } from "../utils/rateManagement.js"
import { book, charge, expire, type FolioWire, getFolio, type LineWire, localDay } from "../utils/stay.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// GET /folios/{id}: the folio's lines, each in its own currency with the exchange rate frozen
// when it was written, the per-currency balances and the base-currency estimates. Real time;
// each test books its own dates.

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const kinds = (folio: FolioWire) => folio.lines.map((line) => line.kind)

const shape = (line: LineWire) => [line.kind, line.amount, line.currency, line.exchange_rate, line.revenue_category]

layer(TestApiLive, { excludeTestServices: true })("GET /folios/{id}", (it) => {
  it.effect("after the hold: open, the priced lines in the stay currency at rate 1, everything owed", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest, { check_in: "2031-05-04", check_out: "2031-05-07" }))
      // The exact wire: status, header, these keys (of the folio and of each line) and no others.
      const res = yield* api.get(`/folios/${held.folio_id}`)
      expect(res.status, res.text).toBe(200)
      expect(res.headers.get("cache-control")).toBe("no-store")
      const folio = bodyAs(res, FolioView)
      expect(Object.keys(folio).sort()).toEqual(
        ["balance", "balances", "currency", "id", "lines", "reservation_id", "status", "total_charges"]
      )
      expect(folio).toMatchObject({ id: held.folio_id, reservation_id: held.reservation_id, status: "open", currency: "EUR" })
      // 3 nights of 120.00, VAT 6% of the room, city tax 2.00 per adult per night.
      expect(folio.lines.map(shape)).toEqual([
        ["room", "120.00", "EUR", "1", "room"],
        ["room", "120.00", "EUR", "1", "room"],
        ["room", "120.00", "EUR", "1", "room"],
        ["tax", "21.60", "EUR", "1", null],
        ["tax", "12.00", "EUR", "1", null]
      ])
      for (const line of folio.lines) {
        expect(Object.keys(line).sort()).toEqual(
          ["amount", "created_at", "currency", "description", "exchange_rate", "id", "kind", "quantity", "revenue_category", "service_id"]
        )
        expect(line.created_at).toMatch(ISO)
        expect(line.description.length).toBeGreaterThan(0)
      }
      expect(new Set(folio.lines.map((l) => l.id)).size).toBe(folio.lines.length)
      expect(folio.balances).toEqual([{ currency: "EUR", charges: "393.60", payments: "0.00", balance: "393.60" }])
      expect(folio.balance).toBe("393.60")
      expect(folio.total_charges).toBe("393.60")
      // The reservation reports the same figures.
      const reservation = yield* getReservation(api, held.reservation_id)
      expect(reservation.folio_id).toBe(held.folio_id)
      expect([reservation.folio_balance, reservation.balances]).toEqual([folio.balance, folio.balances])
    }))

  it.effect("after the confirm: the payment line settles the folio", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest, { check_in: "2031-05-11", check_out: "2031-05-14" }))
      yield* confirm(api, held.reservation_id, { payment_reference: "psp_folio_1" })
      const folio = yield* getFolio(api, held.folio_id)
      expect(folio.status).toBe("open")
      expect(kinds(folio)).toEqual(["room", "room", "room", "tax", "tax", "payment"])
      const payment = folio.lines[5]
      expect([payment.description, payment.amount, payment.currency, payment.exchange_rate]).toEqual(
        ["Payment psp_folio_1", "393.60", "EUR", "1"]
      )
      expect(folio.balances).toEqual([{ currency: "EUR", charges: "393.60", payments: "393.60", balance: "0.00" }])
      expect([folio.balance, folio.total_charges]).toEqual(["0.00", "393.60"])
    }))

  it.effect("charges in the stay currency, a configured currency and an unconfigured one; rates are frozen", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const booked = yield* book(api, { check_in: "2031-05-18", check_out: "2031-05-21" })

      yield* charge(api, booked.reservation_id, { description: "Dinner", amount: "42.50", revenue_category: "fnb" })
      let folio = yield* getFolio(api, booked.folio_id)
      expect(folio.balances).toEqual([{ currency: "EUR", charges: "436.10", payments: "393.60", balance: "42.50" }])
      expect([folio.balance, folio.total_charges]).toEqual(["42.50", "436.10"])

      // USD is configured at 0.92 EUR per USD: the line keeps that rate, the flat figures convert with it.
      yield* charge(api, booked.reservation_id, { description: "Taxi", amount: "25.00", currency: "USD", revenue_category: "excursions" })
      folio = yield* getFolio(api, booked.folio_id)
      expect(shape(folio.lines[folio.lines.length - 1])).toEqual(["charge", "25.00", "USD", "0.92", "excursions"])
      expect(folio.balances).toEqual([
        { currency: "EUR", charges: "436.10", payments: "393.60", balance: "42.50" },
        { currency: "USD", charges: "25.00", payments: "0.00", balance: "25.00" }
      ])
      expect([folio.balance, folio.total_charges]).toEqual(["65.50", "459.10"])

      // A later rate change never alters the value of an existing line; a new line takes the new rate.
      yield* api.sql`UPDATE property_currencies SET rate_to_base = 0.5
                     WHERE property_id = ${api.property.property_id} AND currency = 'USD'`.pipe(Effect.orDie)
      folio = yield* getFolio(api, booked.folio_id)
      expect([folio.balance, folio.total_charges]).toEqual(["65.50", "459.10"])
      yield* charge(api, booked.reservation_id, { description: "Taxi back", amount: "10.00", currency: "USD" })
      folio = yield* getFolio(api, booked.folio_id)
      expect(folio.lines.slice(-2).map((l) => l.exchange_rate)).toEqual(["0.92", "0.5"])
      expect([folio.balance, folio.total_charges]).toEqual(["70.50", "464.10"])
      yield* api.sql`UPDATE property_currencies SET rate_to_base = 0.92
                     WHERE property_id = ${api.property.property_id} AND currency = 'USD'`.pipe(Effect.orDie)

      // GBP has no configured rate: the line's rate is null and so are the flat figures; the entries stay exact.
      yield* charge(api, booked.reservation_id, { description: "Theatre", amount: "33.33", currency: "GBP", revenue_category: "activities" })
      folio = yield* getFolio(api, booked.folio_id)
      expect(shape(folio.lines[folio.lines.length - 1])).toEqual(["charge", "33.33", "GBP", null, "activities"])
      expect(folio.balances).toEqual([
        { currency: "EUR", charges: "436.10", payments: "393.60", balance: "42.50" },
        { currency: "USD", charges: "35.00", payments: "0.00", balance: "35.00" },
        { currency: "GBP", charges: "33.33", payments: "0.00", balance: "33.33" }
      ])
      expect([folio.balance, folio.total_charges]).toEqual([null, null])
      const reservation = yield* getReservation(api, booked.reservation_id)
      expect([reservation.folio_balance, reservation.balances]).toEqual([null, folio.balances])

      // A JPY line is formatted with JPY's zero minor digits.
      yield* charge(api, booked.reservation_id, { description: "Souvenir", amount: "1500", currency: "JPY" })
      folio = yield* getFolio(api, booked.folio_id)
      expect(shape(folio.lines[folio.lines.length - 1])).toEqual(["charge", "1500", "JPY", null, "other"])
      expect(folio.balances[3]).toEqual({ currency: "JPY", charges: "1500", payments: "0", balance: "1500" })
    }))

  it.effect("after the cancel: voided, the stay's charges void, the refund written, nothing owed", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const booked = yield* book(api, { check_in: "2031-05-25", check_out: "2031-05-28" })
      yield* charge(api, booked.reservation_id, { description: "Airport pickup", amount: "30.00", revenue_category: "excursions" })
      const cancelled = yield* cancel(api, booked.reservation_id, { reason: "plans changed" })
      expect(cancelled.status).toBe("cancelled")
      const folio = yield* getFolio(api, booked.folio_id)
      expect(folio.status).toBe("voided")
      // Far from arrival: a full refund of the 393.60 paid; the posted charge is void with the stay.
      expect(kinds(folio)).toEqual(["room", "room", "room", "tax", "tax", "payment", "charge", "refund"])
      expect(shape(folio.lines[7])).toEqual(["refund", "393.60", "EUR", "1", null])
      expect(folio.balances).toEqual([{ currency: "EUR", charges: "0.00", payments: "0.00", balance: "0.00" }])
      expect([folio.balance, folio.total_charges]).toEqual(["0.00", "0.00"])
    }))

  it.effect("a cancel inside the 50% tier keeps a cancellation fee that balances the voided folio", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const booked = yield* book(api, { check_in: localDay(3), check_out: localDay(6) })
      expect((yield* cancel(api, booked.reservation_id)).status).toBe("cancelled")
      const folio = yield* getFolio(api, booked.folio_id)
      expect(folio.status).toBe("voided")
      expect(folio.lines.slice(-2).map(shape)).toEqual([
        ["refund", "196.80", "EUR", "1", null],
        ["cancellation_fee", "196.80", "EUR", "1", null]
      ])
      expect(folio.balances).toEqual([{ currency: "EUR", charges: "196.80", payments: "196.80", balance: "0.00" }])
      expect(folio.balance).toBe("0.00")
    }))

  it.effect("the folio of a hold whose window lapsed reads voided, its charges void", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const held = yield* book(api, { check_in: "2031-06-01", check_out: "2031-06-02" }, { tentative: true })
      expect((yield* getFolio(api, held.folio_id)).status).toBe("open")
      yield* expire(api.sql, held.reservation_id)
      const folio = yield* getFolio(api, held.folio_id)
      expect(folio.status).toBe("voided")
      expect(folio.balances.map((b) => b.balance)).toEqual(["0.00"])
    }))

  it.effect("scope reservations:read; unknown, malformed and another property's folios are 404 folio_not_found", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const held = yield* book(api, { check_in: "2031-06-08", check_out: "2031-06-09" }, { tentative: true })

      for (const scopes of [["catalog:read"], ["reservations:write", "folios:write"]] as const) {
        const key = yield* api.createKey({ scopes })
        const denied = yield* expectFailure(getFolio(api, held.folio_id, { key }), InsufficientScope)
        expect(denied.message).toContain("reservations:read")
      }
      const reader = yield* api.createKey({ scopes: ["reservations:read"] })
      expect((yield* getFolio(api, held.folio_id, { key: reader })).id).toBe(held.folio_id)
      yield* expectFailure(getFolio(api, held.folio_id, { key: null }), MissingApiKey)

      for (const id of [missingId, held.reservation_id]) yield* expectFailure(getFolio(api, id), FolioNotFound)
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      expectError(yield* api.get("/folios/F-123"), 404, "not_found", "folio_not_found")
      // Another property's key sees nothing of this one, and this key nothing of the other's.
      const other = yield* api.importProperty()
      const otherKey = yield* api.createKey({ propertyId: other.property_id })
      yield* expectFailure(getFolio(api, held.folio_id, { key: otherKey }), FolioNotFound)
      const theirGuest = yield* newGuest(api, other.property_id)
      const theirs = yield* hold(
        api,
        holdBody(api, theirGuest, { check_in: "2031-06-08", check_out: "2031-06-09" }, other),
        { key: otherKey }
      )
      expect((yield* getFolio(api, theirs.folio_id, { key: otherKey })).id).toBe(theirs.folio_id)
      yield* expectFailure(getFolio(api, theirs.folio_id), FolioNotFound)
    }))
})
