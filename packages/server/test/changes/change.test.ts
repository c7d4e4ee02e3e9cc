import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { allEvents } from "../events/feed.js"
import { confirm, folioLines, getReservation, lastSuite } from "../utils/booking.js"
import { change, changeQuote, pay, patchReservation } from "../utils/changes.js"
import { expectInvalid } from "../utils/rateManagement.js"
import { book, charge, getFolio, loyaltyBalance } from "../utils/stay.js"
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
      yield* api.sql`UPDATE rate_plans SET base_price = 120 WHERE id = ${api.property.rate_plans["BAR-DBL"]}`.pipe(Effect.orDie)
    }))

  it.effect("a night less on a paid stay: refund_due_minor by the tier in force, written as a refund line, the rest a change_fee; the event carries both", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      // Local 2031-03-06 is 4 days before arrival: the 50% tier.
      yield* at("2031-03-06T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-03-10", check_out: "2031-03-13" })
      expect(booked.total).toBe("393.60")
      const quote = yield* changeQuote(api, booked.reservation_id, { check_out: "2031-03-12" })
      expect(quote).toMatchObject({ total: "262.40", difference: "-131.20", amount_due: "0.00", refund_due_minor: 6560 })
      const [last] = (yield* allEvents(api)).slice(-1)
      const changed = yield* change(api, booked.reservation_id, { check_out: "2031-03-12" })
      // The refund is written as the cancel writes its own, so the settled stay's balance is 0 (its amount_due).
      expect(changed).toMatchObject({
        total: "262.40",
        folio_balance: "0.00",
        balances: [{ currency: "EUR", charges: "328.00", payments: "328.00", balance: "0.00" }]
      })
      const lines = yield* folioLines(api.sql, booked.folio_id)
      expect(lines.slice(-2)).toMatchObject([
        { kind: "change_fee", amount: "65.6", currency: "EUR", description: "Change fee (50% of the amount paid above the new total)" },
        { kind: "refund", amount: "65.6", currency: "EUR", description: "Refund due on change (50%)" }
      ])
      const events = yield* allEvents(api, undefined, { after: last.id })
      expect(events.map((e) => e.type)).toEqual(["reservation.changed", "availability.changed"])
      expect(events[0].data).toEqual({ ...changed, refund_due_minor: 6560, amount_due: "0.00" })
      expect(events[1].data).toEqual({ room_type_id: changed.room_type_id, start_date: "2031-03-10", end_date: "2031-03-13" })
    }))

  it.effect("a hold moved to another room type keeps its expiry; one availability.changed per room type", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-04-10", check_out: "2031-04-12" }, { tentative: true })
      const before = yield* getReservation(api, booked.reservation_id)
      yield* at("2031-02-01T10:05:00Z")
      const [last] = (yield* allEvents(api)).slice(-1)
      const changed = yield* change(api, booked.reservation_id, { ...lastSuite(api), check_in: "2031-04-11", check_out: "2031-04-13" })
      expect(changed).toMatchObject({
        status: "tentative",
        room_type_id: lastSuite(api).room_type_id,
        rate_plan_id: lastSuite(api).rate_plan_id,
        hold_expires_at: before.hold_expires_at,
        total: "538.00",
        folio_balance: "538.00"
      })
      expect(changed.accommodations.map((a) => [a.room_type_id, a.check_in_date, a.check_out_date])).toEqual([
        [lastSuite(api).room_type_id, "2031-04-11", "2031-04-13"]
      ])
      const events = yield* allEvents(api, undefined, { after: last.id })
      expect(events.map((e) => [e.type, e.data["start_date"], e.data["end_date"]])).toEqual([
        ["reservation.changed", undefined, undefined],
        ["availability.changed", "2031-04-10", "2031-04-12"],
        ["availability.changed", "2031-04-11", "2031-04-13"]
      ])
      expect(events[0].data).toMatchObject({ refund_due_minor: 0, amount_due: "0.00" })
    }))

  it.effect("a change where nothing differs changes nothing and emits no event; notes alone write no folio line", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-05-10", check_out: "2031-05-12" })
      const before = yield* getReservation(api, booked.reservation_id)
      const lines = yield* folioLines(api.sql, booked.folio_id)
      const [last] = (yield* allEvents(api)).slice(-1)
      const same = yield* change(api, booked.reservation_id, { check_in: "2031-05-10", adults: 2, room_type_id: before.room_type_id })
      expect(same).toEqual(before)
      // A code for a plan that takes none is not kept, as on a hold: nothing differs.
      expect(yield* change(api, booked.reservation_id, { promo_code: "SPRING" })).toEqual(before)
      expect(yield* allEvents(api, undefined, { after: last.id })).toEqual([])
      const noted = yield* change(api, booked.reservation_id, { special_notes: "Late arrival" })
      expect(noted).toEqual({ ...before, special_notes: "Late arrival" })
      expect(yield* folioLines(api.sql, booked.folio_id)).toEqual(lines)
      const events = yield* allEvents(api, undefined, { after: last.id })
      expect(events.map((e) => e.type)).toEqual(["reservation.changed"])
    }))

  it.effect("a confirmed USD stay's loyalty follows its room revenue, either way", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      // USD-DBL: 130.00 a night, 10 points per whole USD of room revenue.
      const booked = yield* book(api, { rate_plan_id: api.property.rate_plans["USD-DBL"], check_in: "2031-06-10", check_out: "2031-06-12" })
      expect(yield* loyaltyBalance(api, booked.guest_id)).toBe(2600)
      yield* change(api, booked.reservation_id, { check_out: "2031-06-13" })
      expect(yield* loyaltyBalance(api, booked.guest_id)).toBe(3900)
      yield* change(api, booked.reservation_id, { check_in: "2031-06-12" })
      expect(yield* loyaltyBalance(api, booked.guest_id)).toBe(1300)
      const ledger = yield* api.sql<{ kind: string; points: number }>`
        SELECT kind, points FROM loyalty_ledger WHERE reservation_id = ${booked.reservation_id} ORDER BY points DESC`
        .pipe(Effect.orDie)
      expect(ledger.map((e) => [e.kind, e.points])).toEqual([["earn", 2600], ["adjustment", 1300], ["adjustment", -2600]])
    }))

  it.effect("posted charges are settled on their own: amount_due is the new total less the payments; child_ages decide children", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-07-10", check_out: "2031-07-12" })
      yield* charge(api, booked.reservation_id, { amount: "10.00" })
      const [last] = (yield* allEvents(api)).slice(-1)
      const changed = yield* change(api, booked.reservation_id, { check_out: "2031-07-13", adults: 1, child_ages: [4] })
      expect(changed).toMatchObject({ adults: 1, children: 1, child_ages: [4], total: "387.60", folio_balance: "135.20" })
      const [event] = yield* allEvents(api, undefined, { after: last.id, types: "reservation.changed" })
      expect(event.data).toMatchObject({ amount_due: "125.20", refund_due_minor: 0 })
      // A child of 4 pays no city tax. The folio keeps the charge; the stay's own lines add up to the new total.
      const lines = yield* folioLines(api.sql, booked.folio_id)
      expect(lines.filter((l) => l.kind === "charge").map((l) => l.amount)).toEqual(["10"])
      const stay = lines.filter((l) => ["room", "tax", "reversal"].includes(l.kind)).reduce((sum, l) => sum + Number(l.amount) * 100, 0)
      expect(Math.round(stay)).toBe(38760)
    }))

  it.effect("a hold may move to a plan in another currency (each reversal in its line's currency); a paid stay keeps its own", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-02-01T10:00:00Z")
      const usd = api.property.rate_plans["USD-DBL"]
      const held = yield* book(api, { check_in: "2031-08-10", check_out: "2031-08-12" }, { tentative: true })
      const changed = yield* change(api, held.reservation_id, { rate_plan_id: usd })
      expect(changed).toMatchObject({ currency: "USD", total: "284.30" })
      expect(changed.balances).toEqual([
        { currency: "EUR", charges: "0.00", payments: "0.00", balance: "0.00" },
        { currency: "USD", charges: "284.30", payments: "0.00", balance: "284.30" }
      ])
      const lines = yield* folioLines(api.sql, held.folio_id)
      expect(lines.filter((l) => l.kind === "reversal").map((l) => [l.currency, l.exchange_rate])).toEqual([
        ["EUR", "1"], ["EUR", "1"], ["EUR", "1"], ["EUR", "1"]
      ])
      const confirmed = yield* confirm(api, held.reservation_id, { payment_currency: "USD", payment_amount: "284.30" })
      expect(confirmed.currency).toBe("USD")
      const paid = yield* book(api, { check_in: "2031-08-10", check_out: "2031-08-12" })
      expectInvalid(yield* patchReservation(api, paid.reservation_id, { rate_plan_id: usd }), "rate_plan_id")
    }))
})
