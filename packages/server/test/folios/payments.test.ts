import { expect, layer } from "@effect/vitest"
import { CurrencyMismatch, InvalidStatusTransition, PaymentReferenceReused } from "@hotel/domain"
import { PaymentRecorded } from "@hotel/api/folios/Api"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { allEvents } from "../events/feed.js"
import { cancel, confirm, hold, holdBody, newGuest } from "../utils/booking.js"
import { bodyAs, expectFailure } from "../utils/client.js"
import { change, pay, postPayment } from "../utils/changes.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { book, getFolio } from "../utils/stay.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// POST /reservations/{id}/payments: a further payment on a confirmed or checked-in reservation.

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

layer(TestApiLive)("POST /reservations/{id}/payments", (it) => {
  it.effect("records what a change left owing: 201, the folio's figures, folio.payment_recorded", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-03-10", check_out: "2031-03-12" })
      const changed = yield* change(api, booked.reservation_id, { check_out: "2031-03-13" })
      expect(changed.folio_balance).toBe("131.20")
      const [last] = (yield* allEvents(api)).slice(-1)
      const res = yield* postPayment(api, booked.reservation_id, { payment_reference: "extra-1", amount: "100.00", currency: "eur" })
      expect(res.status, res.text).toBe(201)
      expect(bodyAs(res, PaymentRecorded)).toEqual({
        reservation_id: booked.reservation_id,
        payment_reference: "extra-1",
        amount: "100.00",
        currency: "EUR",
        folio_balance: "31.20",
        balances: [{ currency: "EUR", charges: "393.60", payments: "362.40", balance: "31.20" }]
      })
      const events = yield* allEvents(api, undefined, { after: last.id })
      expect(events.map((e) => e.type)).toEqual(["folio.payment_recorded"])
      expect(events[0].data).toEqual(yield* getFolio(api, booked.folio_id))
      // More than is owed is recorded too: the balance goes below zero.
      expect((yield* pay(api, booked.reservation_id, { amount: "50" })).folio_balance).toBe("-18.80")
    }))

  it.effect("refusals: amount (400 amount), currency (400 currency_mismatch), status (409), reference (409), id (404)", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-04-10", check_out: "2031-04-12" })
      const id = booked.reservation_id
      const body = { payment_reference: "ref-a", amount: "10.00", currency: "EUR" }
      for (const amount of ["0", "0.00", "-5.00", "1.234", "abc", 5, null]) {
        expectInvalid(yield* postPayment(api, id, { ...body, amount }), "amount")
      }
      // A field is checked before the reservation: whatever its currency, and whether it exists at all.
      for (const amount of ["0", "-5.00", "abc", 5, null]) {
        expectInvalid(yield* postPayment(api, id, { ...body, amount, currency: "USD" }), "amount")
        expectInvalid(yield* postPayment(api, missingId, { ...body, amount }), "amount")
      }
      // The amount's decimals are the reservation's currency's, checked once it is read.
      expectError(yield* postPayment(api, missingId, { ...body, amount: "1.234" }), 404, "not_found", "reservation_not_found")
      expectError(yield* postPayment(api, id, { ...body, amount: "1.234", currency: "JPY" }), 400, "invalid_request", "currency_mismatch", "currency")
      expectInvalid(yield* postPayment(api, id, { ...body, payment_reference: "" }), "payment_reference")
      expectInvalid(yield* postPayment(api, id, { amount: "1.00", currency: "EUR" }), "payment_reference")
      expectInvalid(yield* postPayment(api, id, { ...body, currency: "EURO" }), "currency")
      expectError(yield* postPayment(api, id, { ...body, currency: "USD" }), 400, "invalid_request", "currency_mismatch", "currency")
      yield* expectFailure(pay(api, id, { amount: "10.00", currency: "JPY" }), CurrencyMismatch, "currency")
      expectError(yield* postPayment(api, missingId, body), 404, "not_found", "reservation_not_found")
      expectError(yield* postPayment(api, "x", body), 404, "not_found", "reservation_not_found")

      // One rule for a reference, shared with the confirm: recorded once in the property, on any reservation.
      yield* pay(api, id, { amount: "10.00", payment_reference: "ref-a" })
      expectError(yield* postPayment(api, id, body), 409, "conflict", "payment_reference_reused")
      const other = yield* book(api, { check_in: "2031-04-10", check_out: "2031-04-12" })
      yield* expectFailure(pay(api, other.reservation_id, { amount: "1.00", payment_reference: "ref-a" }), PaymentReferenceReused)
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest, { check_in: "2031-04-10", check_out: "2031-04-12" }))
      yield* expectFailure(confirm(api, held.reservation_id, { payment_reference: "ref-a" }), PaymentReferenceReused)
      expectError(yield* postPayment(api, held.reservation_id, { ...body, payment_reference: "ref-b" }), 409, "conflict", "invalid_status_transition")
      yield* cancel(api, other.reservation_id)
      yield* expectFailure(pay(api, other.reservation_id, { amount: "1.00" }), InvalidStatusTransition)
      const [{ n }] = yield* api.sql<{ n: number }>`SELECT count(*)::int AS n FROM payments WHERE reference = 'ref-a'`.pipe(Effect.orDie)
      expect(n).toBe(1)
    }))
})
