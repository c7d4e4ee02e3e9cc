import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { folioLines, getReservation } from "../utils/booking.js"
import { change, changeQuote, pay } from "../utils/changes.js"
import { book, getFolio } from "../utils/stay.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// PATCH /reservations/{id} and its quote on the fixture property (DBL: 120.00 a night, extra adult 30.00; VAT 6%
// of room revenue; city tax 2.00 per guest per night). The server runs on the TestClock.

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

layer(TestApiLive)("PATCH /reservations/{id}", (it) => {
  it.effect("a night more on a confirmed stay: kept nights keep their price, reversals then the new lines, amount_due", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-01-10T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-03-10", check_out: "2031-03-12" })
      // The plan's price rises after the booking: the two booked nights keep 120.00, the new one costs 150.00.
      yield* api.sql`UPDATE rate_plans SET base_price = 150 WHERE id = ${api.property.rate_plans["BAR-DBL"]}`.pipe(Effect.orDie)
      const quote = yield* changeQuote(api, booked.reservation_id, { check_out: "2031-03-13" })
      expect(quote).toMatchObject({
        reservation_id: booked.reservation_id,
        bookable: true,
        reasons: [],
        currency: "EUR",
        previous_total: "262.40",
        total: "425.40",
        difference: "163.00",
        amount_due: "163.00",
        refund_due_minor: 0
      })
      expect(quote.nights.map((n) => [n.date, n.amount, n.kept])).toEqual([
        ["2031-03-10", "120.00", true],
        ["2031-03-11", "120.00", true],
        ["2031-03-12", "150.00", false]
      ])
      const before = yield* folioLines(api.sql, booked.folio_id)
      const changed = yield* change(api, booked.reservation_id, { check_out: "2031-03-13" })
      expect(changed).toMatchObject({ check_out_date: "2031-03-13", total: "425.40", nightly_rate: "130.00", status: "confirmed" })
      expect(changed).toEqual(yield* getReservation(api, booked.reservation_id))
      const after = yield* folioLines(api.sql, booked.folio_id)
      const appended = after.slice(before.length)
      const stayLines = before.filter((l) => l.kind !== "payment")
      expect(appended.slice(0, stayLines.length)).toEqual(stayLines.map((l) => ({
        ...l,
        kind: "reversal",
        description: `Reversal: ${l.description}`,
        amount: l.amount.startsWith("-") ? l.amount.slice(1) : `-${l.amount}`
      })))
      // The quote is the change it predicted, line for line.
      expect(appended.slice(stayLines.length).map((l) => ({ kind: l.kind, description: l.description, amount: l.amount })))
        .toEqual(quote.lines.map((l) => ({ ...l, amount: Number(l.amount).toString() })))
      const folio = yield* getFolio(api, booked.folio_id)
      expect(folio.balance).toBe("163.00")
      const paid = yield* pay(api, booked.reservation_id, { amount: "163.00" })
      expect(paid).toMatchObject({ amount: "163.00", currency: "EUR", folio_balance: "0.00" })
    }))
})
