import { expect, layer } from "@effect/vitest"
import {
  AmountMismatch,
  CurrencyMismatch,
  InsufficientScope,
  NoAvailability,
  NotConfirmable,
  PaymentReferenceReused,
  ReservationNotFound
} from "@hotel/domain"
import * as Effect from "effect/Effect"
import {
  bookingRows,
  cancel,
  confirm,
  type ConfirmResponse,
  count,
  folioLines,
  getReservation,
  hold,
  holdBody,
  lastSuite,
  newGuest,
  postConfirm
} from "../utils/booking.js"
import { clientOf, expectFailure } from "../utils/client.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { insertReservation } from "../utils/sqlSeed.js"
import { expire, loyaltyBalance, seedStay } from "../utils/stay.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// POST /holds/{id}/confirm. Real time; each test books its own dates.

const reference = () => `pay_${globalThis.crypto.randomUUID()}`

layer(TestApiLive, { excludeTestServices: true })("POST /holds/{id}/confirm", (it) => {
  it.effect("confirms a live hold: reservation and accommodation confirmed, payment recorded, audit written", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest, { check_in: "2031-03-10", check_out: "2031-03-13" }))
      const ref = reference()
      const [done, res] = yield* api.client.holds.confirm({ headers: {},
        params: { id: held.reservation_id },
        payload: { payment_reference: ref, payment_currency: "EUR", payment_amount: 393.6 },
        responseMode: "decoded-and-response"
      })
      expect(res.status).toBe(200)
      expect(res.headers["cache-control"]).toBe("no-store")
      expect(done).toEqual({
        reservation_id: held.reservation_id,
        status: "confirmed",
        check_in_date: "2031-03-10",
        check_out_date: "2031-03-13",
        currency: "EUR",
        folio_balance: "0.00",
        balances: [{ currency: "EUR", charges: "393.60", payments: "393.60", balance: "0.00" }],
        already_confirmed: false
      })

      const reservation = yield* getReservation(api, held.reservation_id)
      expect(reservation.status).toBe("confirmed")
      expect(reservation.folio_balance).toBe("0.00")
      expect(reservation.accommodations.map((a) => [a.status, a.room_id])).toEqual([["confirmed", null]])

      const lines = yield* folioLines(api.sql, held.folio_id)
      const payment = lines.filter((l) => l.kind === "payment")
      expect(payment.map((l) => [Number(l.amount), l.currency, l.description])).toEqual([[393.6, "EUR", `Payment ${ref}`]])
      const payments = yield* api.sql<{ reference: string; amount: string; currency: string; folio_id: string }>`
        SELECT reference, amount::text AS amount, currency, folio_id FROM payments
        WHERE reservation_id = ${held.reservation_id}`.pipe(Effect.orDie)
      expect(payments.map((p) => [p.reference, Number(p.amount), p.currency, p.folio_id]))
        .toEqual([[ref, 393.6, "EUR", held.folio_id]])

      const audit = yield* api.sql<
        {
          api_key_id: string | null
          payment_reference: string
          asserted_amount: string
          asserted_currency: string
          request_id: string
        }
      >`
        SELECT api_key_id, payment_reference, asserted_amount::text AS asserted_amount, asserted_currency, request_id
        FROM confirm_audit WHERE reservation_id = ${held.reservation_id}`.pipe(Effect.orDie)
      expect(audit).toHaveLength(1)
      expect(audit[0]).toMatchObject({ payment_reference: ref, asserted_currency: "EUR", request_id: res.headers["x-request-id"] })
      expect(Number(audit[0].asserted_amount)).toBe(393.6)
      const me = yield* api.client.me.me()
      expect(audit[0].api_key_id).toBe(me.api_key_id)

      // A EUR stay earns no points; the skipped earn is recorded for reconciliation.
      const skipped = yield* api.sql<{ currency: string; room_revenue: string }>`
        SELECT currency, room_revenue::text AS room_revenue FROM loyalty_skipped_earns
        WHERE reservation_id = ${held.reservation_id}`.pipe(Effect.orDie)
      expect(skipped.map((s) => [s.currency, Number(s.room_revenue)])).toEqual([["EUR", 360]])
      expect(yield* count(api.sql, "loyalty_ledger", { column: "reservation_id", value: held.reservation_id })).toBe(0)
      const status = yield* api.client.reservationReads.list({ query: { status: "confirmed", guest_id: guest } })
      expect(status.data.map((r) => r.id)).toEqual([held.reservation_id])
    }))

  it.effect("a USD stay earns loyalty points per whole USD of room revenue", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest, {
        check_in: "2031-03-17",
        check_out: "2031-03-20",
        rate_plan_id: api.property.rate_plans["USD-DBL"],
        child_ages: [5]
      }))
      // 3 nights of 130 + 50% of the 30 extra-guest charge for the 5-year-old = 435.00 USD of room revenue.
      const done = yield* confirm(api, held.reservation_id, { payment_currency: "usd", payment_amount: held.total })
      expect(done.currency).toBe("USD")
      expect(done.balances).toEqual([{ currency: "USD", charges: held.total, payments: held.total, balance: "0.00" }])
      const ledger = yield* api.sql<{ kind: string; points: number }>`
        SELECT kind, points FROM loyalty_ledger WHERE reservation_id = ${held.reservation_id}`.pipe(Effect.orDie)
      expect(ledger).toEqual([{ kind: "earn", points: 4350 }])
      expect(yield* loyaltyBalance(api, guest)).toBe(4350)
      expect(yield* count(api.sql, "loyalty_skipped_earns", { column: "reservation_id", value: held.reservation_id }))
        .toBe(0)
    }))

  it.effect("payment_amount is compared as a decimal: a JSON number or a decimal string; mismatches are 400", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const stay = { check_in: "2031-03-24", check_out: "2031-03-27" }
      const a = yield* hold(api, holdBody(api, guest, stay))
      // Each code's wire once, then the decoded error.
      expectError(
        yield* postConfirm(api, a.reservation_id, { payment_reference: reference(), payment_amount: 393.59 }),
        400,
        "invalid_request",
        "amount_mismatch",
        "payment_amount"
      )
      const mismatch = (payment_amount: number | string) =>
        expectFailure(confirm(api, a.reservation_id, { payment_amount }), AmountMismatch, "payment_amount")
      yield* mismatch("393.601")
      yield* mismatch(0)
      expectError(
        yield* postConfirm(api, a.reservation_id, { payment_reference: reference(), payment_currency: "USD" }),
        400,
        "invalid_request",
        "currency_mismatch",
        "payment_currency"
      )
      yield* expectFailure(confirm(api, a.reservation_id, { payment_currency: "XYZ" }), CurrencyMismatch, "payment_currency")
      // Nothing was recorded by the refusals.
      expect(yield* count(api.sql, "payments", { column: "reservation_id", value: a.reservation_id })).toBe(0)
      expect(yield* count(api.sql, "confirm_audit", { column: "reservation_id", value: a.reservation_id })).toBe(0)
      expect((yield* getReservation(api, a.reservation_id)).status).toBe("tentative")
      // Equal decimals in any spelling.
      yield* confirm(api, a.reservation_id, { payment_amount: "393.600", payment_currency: "EUR" })
      const b = yield* hold(api, holdBody(api, guest, stay))
      yield* confirm(api, b.reservation_id, { payment_amount: "393.6" })
      const c = yield* hold(api, holdBody(api, guest, stay))
      yield* confirm(api, c.reservation_id, { payment_amount: 393.60 })
    }))

  it.effect("field validation of the body names the field", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest, { check_in: "2031-03-31", check_out: "2031-04-01" }))
      const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
        [{}, "payment_reference"],
        [{ payment_reference: "" }, "payment_reference"],
        [{ payment_reference: "   " }, "payment_reference"],
        [{ payment_reference: 42 }, "payment_reference"],
        [{ payment_reference: "x".repeat(256) }, "payment_reference"],
        [{ payment_reference: "ok", payment_amount: "12,50" }, "payment_amount"],
        [{ payment_reference: "ok", payment_amount: -1 }, "payment_amount"],
        [{ payment_reference: "ok", payment_amount: true }, "payment_amount"],
        [{ payment_reference: "ok", payment_amount: "1e3" }, "payment_amount"],
        [{ payment_reference: "ok", payment_currency: "EURO" }, "payment_currency"],
        [{ payment_reference: "ok", payment_currency: 978 }, "payment_currency"]
      ]
      for (const [body, param] of cases) expectInvalid(yield* postConfirm(api, held.reservation_id, body), param)
      expect((yield* getReservation(api, held.reservation_id)).status).toBe("tentative")
    }))

  it.effect("idempotent: a repeat (same or another reference) answers already_confirmed and records nothing", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest, {
        check_in: "2031-04-07",
        check_out: "2031-04-09",
        rate_plan_id: api.property.rate_plans["USD-DBL"]
      }))
      const ref = reference()
      const first = yield* confirm(api, held.reservation_id, { payment_reference: ref })
      expect(first.already_confirmed).toBe(false)
      const rows = yield* bookingRows(api.sql)
      const ledger = yield* count(api.sql, "loyalty_ledger")
      const audit = yield* count(api.sql, "confirm_audit")
      const same = yield* confirm(api, held.reservation_id, { payment_reference: ref })
      const other = yield* confirm(api, held.reservation_id, { payment_reference: reference(), payment_amount: "1.00" })
      for (const again of [same, other]) {
        expect(again).toEqual({ ...first, already_confirmed: true } satisfies ConfirmResponse)
      }
      expect(yield* bookingRows(api.sql)).toEqual(rows)
      expect(yield* count(api.sql, "loyalty_ledger")).toBe(ledger)
      expect(yield* count(api.sql, "confirm_audit")).toBe(audit)
    }))

  it.effect("a reference already recorded on another reservation is 409 payment_reference_reused", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const stay = { check_in: "2031-04-14", check_out: "2031-04-15" }
      const a = yield* hold(api, holdBody(api, guest, stay))
      const b = yield* hold(api, holdBody(api, guest, stay))
      const ref = reference()
      yield* confirm(api, a.reservation_id, { payment_reference: ref })
      const res = yield* postConfirm(api, b.reservation_id, { payment_reference: ref })
      expectError(res, 409, "conflict", "payment_reference_reused")
      expect((yield* getReservation(api, b.reservation_id)).status).toBe("tentative")
      // References are per property: another property may use the same text.
      const other = yield* api.importProperty()
      const otherKey = yield* api.createKey({ propertyId: other.property_id })
      const otherGuest = yield* newGuest(api, other.property_id)
      const c = yield* hold(api, holdBody(api, otherGuest, stay, other), { key: otherKey })
      yield* confirm(api, c.reservation_id, { payment_reference: ref }, { key: otherKey })
    }))

  it.effect("with an Idempotency-Key, a reused reference writes nothing and frees the key for the corrected confirm", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const stay = { check_in: "2031-04-16", check_out: "2031-04-17" }
      const a = yield* hold(api, holdBody(api, guest, stay))
      const b = yield* hold(api, holdBody(api, guest, stay))
      const ref = reference()
      yield* confirm(api, a.reservation_id, { payment_reference: ref })
      // The payment line is written before the reference's unique violation: the key's transaction (no
      // savepoint of the confirm's own) must roll it back with everything else.
      const keyed = yield* clientOf(api, { headers: { "idempotency-key": `confirm-${globalThis.crypto.randomUUID()}` } })
      const confirmKeyed = (payment_reference: string) =>
        keyed.holds.confirm({ headers: {}, params: { id: b.reservation_id }, payload: { payment_reference }, responseMode: "decoded-and-response" })
      yield* expectFailure(confirmKeyed(ref), PaymentReferenceReused)
      expect((yield* getReservation(api, b.reservation_id)).status).toBe("tentative")
      expect((yield* folioLines(api.sql, b.folio_id)).map((line) => line.kind)).not.toContain("payment")
      const [, corrected] = yield* confirmKeyed(reference())
      expect(corrected.status).toBe(200)
      expect(corrected.headers["idempotent-replayed"]).toBeUndefined()
      expect((yield* folioLines(api.sql, b.folio_id)).filter((line) => line.kind === "payment")).toHaveLength(1)
    }))

  it.effect("404 reservation_not_found for an unknown, malformed or other property's id", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest, { check_in: "2031-04-21", check_out: "2031-04-22" }))
      const other = yield* api.importProperty()
      const otherKey = yield* api.createKey({ propertyId: other.property_id })
      yield* expectFailure(confirm(api, missingId), ReservationNotFound)
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      expectError(
        yield* postConfirm(api, "RES-1", { payment_reference: reference() }),
        404,
        "not_found",
        "reservation_not_found"
      )
      yield* expectFailure(confirm(api, held.reservation_id, {}, { key: otherKey }), ReservationNotFound)
      const readOnly = yield* api.createKey({ scopes: ["reservations:read"] })
      yield* expectFailure(confirm(api, held.reservation_id, {}, { key: readOnly }), InsufficientScope)
    }))

  it.effect("409 not_confirmable for a cancelled or otherwise not tentative reservation", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const stay = { check_in: "2031-04-28", check_out: "2031-04-29" }
      const held = yield* hold(api, holdBody(api, guest, stay))
      expect((yield* cancel(api, held.reservation_id)).status).toBe("cancelled")
      expectError(
        yield* postConfirm(api, held.reservation_id, { payment_reference: reference() }),
        409,
        "conflict",
        "not_confirmable"
      )
      for (const status of ["checked_in", "checked_out", "no_show"] as const) {
        const seeded = yield* seedStay(api, { checkIn: "2031-01-01", checkOut: "2031-01-02", status })
        yield* expectFailure(confirm(api, seeded.reservation_id), NotConfirmable)
      }
    }))

  it.effect("409 no_availability when the inventory was lost between hold and confirm; the hold itself does not count", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const suite = { ...lastSuite(api), check_in: "2031-05-05", check_out: "2031-05-07" }
      // The last suite is held: re-checking without the hold itself, it is still free.
      const ok = yield* hold(api, holdBody(api, guest, suite))
      yield* confirm(api, ok.reservation_id)
      // Another hold, then the suite is taken behind the API's back (an overbooking by hand).
      const later = { ...suite, check_in: "2031-05-12", check_out: "2031-05-14" }
      const held = yield* hold(api, holdBody(api, guest, later))
      yield* insertReservation(api.sql, api.property.property_id, {
        roomTypeId: suite.room_type_id,
        ratePlanId: suite.rate_plan_id,
        checkIn: "2031-05-13",
        checkOut: "2031-05-14",
        status: "confirmed"
      })
      yield* expectFailure(confirm(api, held.reservation_id), NoAvailability)
      expect((yield* getReservation(api, held.reservation_id)).status).toBe("tentative")
      expect(yield* count(api.sql, "payments", { column: "reservation_id", value: held.reservation_id })).toBe(0)
    }))

  it.effect("409 hold_expired once the window has lapsed", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest, { check_in: "2031-05-19", check_out: "2031-05-20" }))
      yield* expire(api.sql, held.reservation_id)
      expectError(
        yield* postConfirm(api, held.reservation_id, { payment_reference: reference() }),
        409,
        "conflict",
        "hold_expired"
      )
      expect(yield* count(api.sql, "payments", { column: "reservation_id", value: held.reservation_id })).toBe(0)
    }))
})
