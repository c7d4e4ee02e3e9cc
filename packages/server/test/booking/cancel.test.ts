import { expect, layer } from "@effect/vitest"
import { InsufficientScope, NoAvailability, NotCancellable, ReservationNotFound } from "@hotel/domain"
import { ReservationCancelled } from "@hotel/api/booking/Api"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import {
  cancel,
  confirm,
  folioLines,
  getReservation,
  hold,
  holdBody,
  importedHoldBody,
  importRoomTypes,
  lastSuite,
  newGuest,
  postCancel
} from "../utils/booking.js"
import { bodyAs, expectFailure } from "../utils/client.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { insertPlan } from "../utils/sqlSeed.js"
import { loyaltyBalance, seedStay } from "../utils/stay.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// POST /reservations/{id}/cancel. The server runs on the TestClock, so "today"
// (days before arrival in Lisbon) is whatever the test sets. The fixture policy: 7+ days 100%, 2+ days 50%,
// less 0%. Lisbon is UTC+1 in July: a local day starts at 23:00Z the evening before.

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

layer(TestApiLive)("POST /reservations/{id}/cancel", (it) => {
  it.effect("cancels a live hold: nothing owed, folio voided, accommodation cancelled, inventory released", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-06-01T10:00:00Z")
      const guest = yield* newGuest(api)
      const suite = holdBody(api, guest, { ...lastSuite(api), check_in: "2031-07-10", check_out: "2031-07-12" })
      const held = yield* hold(api, suite)
      yield* expectFailure(hold(api, suite), NoAvailability)

      // No body at all is an empty one (the typed client always sends `{}`).
      const res = yield* api.request("POST", `/reservations/${held.reservation_id}/cancel`)
      expect(res.status, res.text).toBe(200)
      expect(bodyAs(res, ReservationCancelled)).toEqual({ reservation_id: held.reservation_id, status: "cancelled", refund_due_minor: 0 })
      expect(res.headers.get("cache-control")).toBe("no-store")
      const reservation = yield* getReservation(api, held.reservation_id)
      expect(reservation).toMatchObject({
        status: "cancelled",
        cancellation_reason: "cancelled",
        folio_balance: "0.00",
        balances: [{ currency: "EUR", charges: "0.00", payments: "0.00", balance: "0.00" }]
      })
      expect(reservation.accommodations.map((a) => a.status)).toEqual(["cancelled"])
      const [folio] = yield* api.sql<{ status: string }>`SELECT status FROM folios WHERE id = ${held.folio_id}`.pipe(
        Effect.orDie
      )
      expect(folio.status).toBe("voided")
      // The stay's lines stay on the voided folio for audit; no refund lines for an unpaid hold.
      expect((yield* folioLines(api.sql, held.folio_id)).map((l) => l.kind)).toEqual(["room", "room", "tax", "tax"])
      // The suite is free again.
      yield* hold(api, suite)
    }))

  it.effect("refund tiers at their boundaries, in the property's local calendar", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-06-01T10:00:00Z")
      const { imported, key, guest } = yield* importRoomTypes(api, { A: 10 })
      const body = importedHoldBody(imported, "A", guest, { check_in: "2031-07-10", check_out: "2031-07-12" })
      // 2 nights x 100.00, VAT 12.00, city tax 4.00: 216.00 paid.
      const cases = [
        ["2031-07-02T23:00:00Z", 21600], // local 07-03: 7 days before, 100%
        ["2031-07-03T22:59:59Z", 21600], // local 07-03, last second
        ["2031-07-03T23:00:00Z", 10800], // local 07-04: 6 days, 50%
        ["2031-07-08T22:59:59Z", 10800], // local 07-08: 2 days, 50%
        ["2031-07-08T23:00:00Z", 0], // local 07-09: 1 day, 0%
        ["2031-07-10T10:00:00Z", 0], // arrival day
        ["2031-07-11T10:00:00Z", 0] // after arrival (not checked in)
      ] as const
      const ids: Array<string> = []
      for (const _ of cases) {
        const held = yield* hold(api, body, { key })
        expect(held.total).toBe("216.00")
        yield* confirm(api, held.reservation_id, {}, { key })
        ids.push(held.reservation_id)
      }
      for (const [i, [instant, minor]] of cases.entries()) {
        yield* at(instant)
        const res = yield* cancel(api, ids[i], { reason: `case ${i}` }, { key })
        expect(res.refund_due_minor, instant).toBe(minor)
        const reservation = yield* getReservation(api, ids[i], { key })
        expect(reservation.status).toBe("cancelled")
        expect(reservation.cancellation_reason).toBe(`case ${i}`)
        // The cancelled folio balances: the refund lowers payments, the fee is the only charge left.
        const refund = (minor / 100).toFixed(2)
        const fee = ((21600 - minor) / 100).toFixed(2)
        expect(reservation.balances).toEqual([{ currency: "EUR", charges: fee, payments: fee, balance: "0.00" }])
        expect(reservation.folio_balance).toBe("0.00")
        const lines = (yield* folioLines(api.sql, reservation.folio_id)).slice(-2)
        const written = lines.filter((l) => l.kind === "refund" || l.kind === "cancellation_fee")
        expect(written.map((l) => [l.kind, Number(l.amount).toFixed(2)])).toEqual([
          ...(minor > 0 ? [["refund", refund]] : []),
          ...(minor < 21600 ? [["cancellation_fee", fee]] : [])
        ])
      }
    }))

  it.effect("refund_due_minor is rounded down to the minor unit", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-06-01T10:00:00Z")
      const { imported, key, guest } = yield* importRoomTypes(api, { A: 2 })
      const plan = yield* insertPlan(api.sql, imported.property_id, imported.room_types["A"], { base_price: "100.01" })
      const held = yield* hold(
        api,
        importedHoldBody(imported, "A", guest, { rate_plan_id: plan, check_in: "2031-07-10", check_out: "2031-07-11" }),
        { key }
      )
      // 100.01 + VAT 6.00 + city tax 2.00 = 108.01; 50% is 54.005, owed 54.00.
      expect(held.total).toBe("108.01")
      yield* confirm(api, held.reservation_id, {}, { key })
      yield* at("2031-07-05T10:00:00Z")
      expect((yield* cancel(api, held.reservation_id, {}, { key })).refund_due_minor).toBe(5400)
      const reservation = yield* getReservation(api, held.reservation_id, { key })
      expect(reservation.balances).toEqual([{ currency: "EUR", charges: "54.01", payments: "54.01", balance: "0.00" }])
    }))

  it.effect("the policy is the one in force when the stay was held; a plan's own policy overrides the property's", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-06-01T10:00:00Z")
      const { imported, key, guest } = yield* importRoomTypes(api, { A: 3 })
      const body = importedHoldBody(imported, "A", guest, { check_in: "2031-07-10", check_out: "2031-07-11" })
      const before = yield* hold(api, body, { key })
      yield* confirm(api, before.reservation_id, {}, { key })
      // The property turns fully refundable afterwards: the earlier booking keeps its terms.
      yield* api.sql`
        UPDATE properties SET cancellation_policy = '[{"days_before_arrival": 0, "refund_percent": 100}]'
        WHERE id = ${imported.property_id}`.pipe(Effect.orDie)
      const after = yield* hold(api, body, { key })
      yield* confirm(api, after.reservation_id, {}, { key })
      // The plan's own (non-refundable) policy wins over the property's for stays held from now on.
      yield* api.sql`
        UPDATE rate_plans SET cancellation_policy = '[]' WHERE id = ${imported.rate_plans["BAR-A"]}`.pipe(Effect.orDie)
      const own = yield* hold(api, body, { key })
      yield* confirm(api, own.reservation_id, {}, { key })
      yield* at("2031-07-09T10:00:00Z") // 1 day before arrival
      expect((yield* cancel(api, before.reservation_id, {}, { key })).refund_due_minor).toBe(0)
      expect((yield* cancel(api, after.reservation_id, {}, { key })).refund_due_minor).toBe(10800)
      expect((yield* cancel(api, own.reservation_id, {}, { key })).refund_due_minor).toBe(0)
    }))

  it.effect("cancelling a confirmed USD stay reverses the loyalty points it earned", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-06-01T10:00:00Z")
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest, {
        rate_plan_id: api.property.rate_plans["USD-DBL"],
        check_in: "2031-08-04",
        check_out: "2031-08-06"
      }))
      yield* confirm(api, held.reservation_id)
      expect(yield* loyaltyBalance(api, guest)).toBe(2600)
      // 60 days ahead: fully refunded in USD minor units.
      expect((yield* cancel(api, held.reservation_id, { reason: "Change of plans" })).refund_due_minor).toBe(28430)
      expect(yield* loyaltyBalance(api, guest)).toBe(0)
      const ledger = yield* api.sql<{ kind: string; points: number }>`
        SELECT kind, points FROM loyalty_ledger WHERE reservation_id = ${held.reservation_id} ORDER BY created_at, kind`
        .pipe(Effect.orDie)
      expect(ledger).toEqual([{ kind: "earn", points: 2600 }, { kind: "reversal", points: -2600 }])
      const reservation = yield* getReservation(api, held.reservation_id)
      expect(reservation.cancellation_reason).toBe("Change of plans")
      expect(reservation.balances).toEqual([{ currency: "USD", charges: "0.00", payments: "0.00", balance: "0.00" }])
    }))

  it.effect("409 not_cancellable: already cancelled, expired hold, checked in, checked out, no-show", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-06-01T10:00:00Z")
      const guest = yield* newGuest(api)
      const notCancellable = (id: string) => expectFailure(cancel(api, id), NotCancellable)
      const held = yield* hold(api, holdBody(api, guest, { check_in: "2031-08-11", check_out: "2031-08-12" }))
      yield* cancel(api, held.reservation_id)
      expectError(yield* postCancel(api, held.reservation_id), 409, "conflict", "not_cancellable")

      const expiring = yield* hold(api, holdBody(api, guest, { check_in: "2031-08-11", check_out: "2031-08-12" }))
      yield* TestClock.adjust("15 minutes")
      yield* notCancellable(expiring.reservation_id)
      expect((yield* getReservation(api, expiring.reservation_id)).cancellation_reason).toBe("hold_expired")

      for (const status of ["checked_in", "checked_out", "no_show"] as const) {
        const seeded = yield* seedStay(api, { checkIn: "2031-06-01", checkOut: "2031-06-02", status })
        yield* notCancellable(seeded.reservation_id)
      }
    }))

  it.effect("404 reservation_not_found, scope reservations:write, reason validated", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-06-01T10:00:00Z")
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest, { check_in: "2031-08-18", check_out: "2031-08-19" }))
      const other = yield* api.importProperty()
      const otherKey = yield* api.createKey({ propertyId: other.property_id })
      yield* expectFailure(cancel(api, missingId), ReservationNotFound)
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      expectError(yield* postCancel(api, "R-1"), 404, "not_found", "reservation_not_found")
      yield* expectFailure(cancel(api, held.reservation_id, {}, { key: otherKey }), ReservationNotFound)
      const readOnly = yield* api.createKey({ scopes: ["reservations:read"] })
      yield* expectFailure(cancel(api, held.reservation_id, {}, { key: readOnly }), InsufficientScope)
      expectInvalid(yield* postCancel(api, held.reservation_id, { reason: "" }), "reason")
      expectInvalid(yield* postCancel(api, held.reservation_id, { reason: 5 }), "reason")
      expectInvalid(yield* postCancel(api, held.reservation_id, { reason: "x".repeat(501) }), "reason")
      expect((yield* getReservation(api, held.reservation_id)).status).toBe("tentative")
      yield* cancel(api, held.reservation_id, { reason: null })
    }))
})
