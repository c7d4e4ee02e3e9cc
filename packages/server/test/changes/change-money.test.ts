import { expect, layer } from "@effect/vitest"
import { Money } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/testing/TestClock"
import { allEvents, type EventWire } from "../events/feed.js"
import { cancel, newGuest } from "../utils/booking.js"
import { book as bookRooms, bookingBody, cancelBooking, confirmBooking, dblRoom } from "../utils/bookings.js"
import { change, changeQuote, pay } from "../utils/changes.js"
import { clientOf } from "../utils/client.js"
import { book, checkIn, getFolio } from "../utils/stay.js"
import { TestApi, TestApiLive, type TestApiService } from "../utils/TestServer.js"

// The money of a change, then of a cancel, on one stay: a change writes its refund on the folio, and every later
// rule counts what was paid towards the stay (payments less refunds and change fees written), so a refund is paid
// once. The fixture: DBL on BAR-DBL, 3 nights for two adults = 393.60 (131.20 a night with VAT and city tax);
// the policy refunds 100% from 7 days before arrival, 50% from 2 days, then 0%. The server runs on the TestClock.

const at = (iso: string) => TestClock.setTime(Date.parse(iso))

/** A decimal string of the wire as minor units of `currency` (an exact amount: no rounding happens). */
const minor = (amount: string, currency = "EUR") => Number(Money.toMinorFloor(Money.fromDb(amount), currency))

/** The sum of a folio's lines of `kind`, in minor units. */
const linesOf = (api: TestApiService, folioId: string, kind: string, currency = "EUR") =>
  Effect.map(getFolio(api, folioId), (folio) =>
    folio.lines.filter((l) => l.kind === kind).reduce((sum, l) => sum + minor(l.amount, currency), 0))

const cancellationQuote = (api: TestApiService, id: string) =>
  Effect.flatMap(clientOf(api), (client) => client.cancellationQuote.get({ params: { id } }))

/** The events after `after` of `type`. */
const eventsOf = (api: TestApiService, after: EventWire | undefined, type: string) =>
  allEvents(api, undefined, { ...(after === undefined ? {} : { after: after.id }), types: type })

const lastEvent = (api: TestApiService) => Effect.map(allEvents(api), (events) => events.at(-1))

layer(TestApiLive)("the money of changes and a cancel", (it) => {
  it.effect("100% tier: a night kept of three refunds 262.40 on the folio; the cancel then refunds 131.20, 393.60 in all", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-01-10T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-03-10", check_out: "2031-03-13" })
      expect(booked.total).toBe("393.60")
      const atOnce = yield* cancellationQuote(api, booked.reservation_id)
      expect(atOnce.refund_due_minor).toBe(39360)

      const quote = yield* changeQuote(api, booked.reservation_id, { check_out: "2031-03-11" })
      expect(quote).toMatchObject({ total: "131.20", amount_due: "0.00", refund_due_minor: 26240 })
      const before = yield* lastEvent(api)
      const changed = yield* change(api, booked.reservation_id, { check_out: "2031-03-11" })
      expect(changed).toMatchObject({
        total: "131.20",
        folio_balance: "0.00",
        balances: [{ currency: "EUR", charges: "131.20", payments: "131.20", balance: "0.00" }]
      })
      const [changedEvent] = yield* eventsOf(api, before, "reservation.changed")
      expect(changedEvent.data).toMatchObject({ refund_due_minor: 26240, amount_due: "0.00", folio_balance: "0.00" })
      const folio = yield* getFolio(api, booked.folio_id)
      expect(folio.lines.at(-1)).toMatchObject({ kind: "refund", amount: "262.40", description: "Refund due on change (100%)" })
      expect(folio.lines.some((l) => l.kind === "change_fee")).toBe(false)

      // Only what is still paid towards the stay is refunded by the cancel, and its quote says so.
      expect((yield* cancellationQuote(api, booked.reservation_id)).refund_due_minor).toBe(13120)
      const cancelled = yield* cancel(api, booked.reservation_id)
      expect(cancelled.refund_due_minor).toBe(13120)
      const [cancelledEvent] = yield* eventsOf(api, before, "reservation.cancelled")
      expect(cancelledEvent.data).toMatchObject({ refund_due_minor: 13120 })
      expect(yield* linesOf(api, booked.folio_id, "refund")).toBe(atOnce.refund_due_minor)
      expect((yield* getFolio(api, booked.folio_id)).balance).toBe("0.00")
    }))

  it.effect("50% tier: change and cancel together refund and keep what a cancel at once would have: 196.80 each", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      // Local 2031-03-16 is 4 days before arrival.
      yield* at("2031-03-16T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-03-20", check_out: "2031-03-23" })
      const atOnce = yield* cancellationQuote(api, booked.reservation_id)
      expect([atOnce.refund_percent, atOnce.refund_due_minor]).toEqual([50, 19680])

      const quote = yield* changeQuote(api, booked.reservation_id, { check_out: "2031-03-21" })
      expect(quote).toMatchObject({ total: "131.20", amount_due: "0.00", refund_due_minor: 13120 })
      const before = yield* lastEvent(api)
      const changed = yield* change(api, booked.reservation_id, { check_out: "2031-03-21" })
      expect(changed.balances).toEqual([{ currency: "EUR", charges: "262.40", payments: "262.40", balance: "0.00" }])
      const [changedEvent] = yield* eventsOf(api, before, "reservation.changed")
      expect(changedEvent.data).toMatchObject({ refund_due_minor: 13120, amount_due: "0.00" })
      expect(yield* linesOf(api, booked.folio_id, "change_fee")).toBe(13120)
      expect(yield* linesOf(api, booked.folio_id, "refund")).toBe(13120)

      // 131.20 is still paid towards the one night: half of it is refunded, half kept.
      const cancelled = yield* cancel(api, booked.reservation_id)
      expect(cancelled.refund_due_minor).toBe(6560)
      const refunds = yield* linesOf(api, booked.folio_id, "refund")
      const fees = (yield* linesOf(api, booked.folio_id, "change_fee")) + (yield* linesOf(api, booked.folio_id, "cancellation_fee"))
      expect([refunds, fees]).toEqual([19680, 19680])
      expect(refunds + fees).toBe(yield* linesOf(api, booked.folio_id, "payment"))
      // The cancelled folio keeps the fees: it balances to zero.
      expect((yield* getFolio(api, booked.folio_id)).balances).toEqual([
        { currency: "EUR", charges: "196.80", payments: "196.80", balance: "0.00" }
      ])
    }))

  it.effect("the worked example of the docs, at 50%: shorten, extend back, pay what is owed, cancel", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-03-26T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-03-30", check_out: "2031-04-02" })
      const shorter = yield* change(api, booked.reservation_id, { check_out: "2031-03-31" })
      expect(shorter.balances).toEqual([{ currency: "EUR", charges: "262.40", payments: "262.40", balance: "0.00" }])
      const quote = yield* changeQuote(api, booked.reservation_id, { check_out: "2031-04-02" })
      expect(quote).toMatchObject({ total: "393.60", amount_due: "262.40", refund_due_minor: 0 })
      const longer = yield* change(api, booked.reservation_id, { check_out: "2031-04-02" })
      expect(longer.balances).toEqual([{ currency: "EUR", charges: "524.80", payments: "262.40", balance: "262.40" }])
      expect((yield* pay(api, booked.reservation_id, { amount: "262.40" })).folio_balance).toBe("0.00")
      expect((yield* cancel(api, booked.reservation_id)).refund_due_minor).toBe(19680)
      const refunds = yield* linesOf(api, booked.folio_id, "refund")
      const fees = (yield* linesOf(api, booked.folio_id, "change_fee")) + (yield* linesOf(api, booked.folio_id, "cancellation_fee"))
      expect([refunds, fees, yield* linesOf(api, booked.folio_id, "payment")]).toEqual([32800, 32800, 65600])
      expect((yield* getFolio(api, booked.folio_id)).balance).toBe("0.00")
    }))

  it.effect("shortened by two nights (262.40 refunded), then extended back: the quote, the PATCH and its event owe 262.40 again", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-01-10T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-04-10", check_out: "2031-04-13" })
      const shorter = yield* change(api, booked.reservation_id, { check_out: "2031-04-11" })
      expect(shorter.folio_balance).toBe("0.00")
      const quote = yield* changeQuote(api, booked.reservation_id, { check_out: "2031-04-13" })
      expect(quote).toMatchObject({ total: "393.60", amount_due: "262.40", refund_due_minor: 0 })
      const before = yield* lastEvent(api)
      const longer = yield* change(api, booked.reservation_id, { check_out: "2031-04-13" })
      expect(longer).toMatchObject({ total: "393.60", folio_balance: "262.40" })
      const [event] = yield* eventsOf(api, before, "reservation.changed")
      expect(event.data).toMatchObject({ amount_due: "262.40", refund_due_minor: 0, folio_balance: "262.40" })
      expect((yield* pay(api, booked.reservation_id, { amount: "262.40" })).folio_balance).toBe("0.00")
      // Paid in full again: a cancel now refunds the whole stay once more, and nothing beyond what was paid.
      expect((yield* cancel(api, booked.reservation_id)).refund_due_minor).toBe(39360)
      expect(yield* linesOf(api, booked.folio_id, "refund")).toBe(yield* linesOf(api, booked.folio_id, "payment"))
    }))

  it.effect("a checked-in stay shortened at the 0% tier keeps a change fee, and extended again owes the night: balance = amount_due", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-05-10T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-05-10", check_out: "2031-05-13" })
      yield* checkIn(api, booked.reservation_id)
      const shorter = yield* change(api, booked.reservation_id, { check_out: "2031-05-12" })
      expect(shorter).toMatchObject({ status: "checked_in", total: "262.40", folio_balance: "0.00" })
      expect(yield* linesOf(api, booked.folio_id, "change_fee")).toBe(13120)
      expect(yield* linesOf(api, booked.folio_id, "refund")).toBe(0)

      // The fee was kept, not paid towards the stay: the night bought back is owed in full.
      const quote = yield* changeQuote(api, booked.reservation_id, { check_out: "2031-05-13" })
      expect(quote).toMatchObject({ total: "393.60", amount_due: "131.20", refund_due_minor: 0 })
      const before = yield* lastEvent(api)
      const longer = yield* change(api, booked.reservation_id, { check_out: "2031-05-13" })
      expect(longer.folio_balance).toBe(quote.amount_due)
      const [event] = yield* eventsOf(api, before, "reservation.changed")
      expect(event.data).toMatchObject({ amount_due: "131.20", refund_due_minor: 0 })
    }))

  it.effect("a booking: one room shortened refunds 262.40 on its folio; the booking's cancel refunds the rest, 787.20 in all", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-01-10T10:00:00Z")
      const guest = yield* newGuest(api)
      const stay = { check_in: "2031-06-10", check_out: "2031-06-13" }
      const booking = yield* bookRooms(api, bookingBody(guest, [dblRoom(api), dblRoom(api)], stay))
      yield* confirmBooking(api, booking.booking_id, { payment_amount: "787.20" })
      const [first, second] = booking.reservations
      const changed = yield* change(api, first.reservation_id, { check_out: "2031-06-11" })
      expect(changed.folio_balance).toBe("0.00")
      expect(yield* linesOf(api, first.folio_id, "refund")).toBe(26240)

      const cancelled = yield* cancelBooking(api, booking.booking_id)
      expect(cancelled.reservations.map((r) => [r.reservation_id, r.refund_due_minor])).toEqual([
        [first.reservation_id, 13120],
        [second.reservation_id, 39360]
      ])
      expect(cancelled.refund_due_minor).toBe(52480)
      let refunds = 0
      for (const room of booking.reservations) {
        refunds += yield* linesOf(api, room.folio_id, "refund")
        expect((yield* getFolio(api, room.folio_id)).balance).toBe("0.00")
      }
      expect(refunds).toBe(78720)
    }))

  it.effect("a USD stay: the change's refund is a USD line of refund_due_minor, and the cancel refunds the rest once", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-01-10T10:00:00Z")
      const booked = yield* book(api, { rate_plan_id: api.property.rate_plans["USD-DBL"], check_in: "2031-07-10", check_out: "2031-07-13" })
      const atOnce = yield* cancellationQuote(api, booked.reservation_id)
      expect(atOnce).toMatchObject({ currency: "USD", refund_due_minor: minor(booked.total, "USD") })
      const quote = yield* changeQuote(api, booked.reservation_id, { check_out: "2031-07-11" })
      expect(quote.refund_due_minor).toBe(minor(booked.total, "USD") - minor(quote.total, "USD"))
      const before = yield* lastEvent(api)
      const changed = yield* change(api, booked.reservation_id, { check_out: "2031-07-11" })
      expect(changed.balances).toEqual([{ currency: "USD", charges: quote.total, payments: quote.total, balance: "0.00" }])
      const [event] = yield* eventsOf(api, before, "reservation.changed")
      expect(event.data).toMatchObject({ refund_due_minor: quote.refund_due_minor, amount_due: "0.00" })
      const refund = (yield* getFolio(api, booked.folio_id)).lines.at(-1)
      expect(refund).toMatchObject({ kind: "refund", currency: "USD", exchange_rate: "0.92" })
      expect(minor(refund?.amount ?? "0", "USD")).toBe(quote.refund_due_minor)

      const cancelled = yield* cancel(api, booked.reservation_id)
      expect(cancelled.refund_due_minor).toBe(minor(quote.total, "USD"))
      expect(quote.refund_due_minor + cancelled.refund_due_minor).toBe(atOnce.refund_due_minor)
      expect(yield* linesOf(api, booked.folio_id, "refund", "USD")).toBe(atOnce.refund_due_minor)
    }))

  it.effect("include=trace: a kept night's trace is one `kept` entry at its booked amount; a new night's is today's price", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* at("2031-01-10T10:00:00Z")
      const booked = yield* book(api, { check_in: "2031-08-10", check_out: "2031-08-12" })
      const plan = api.property.rate_plans["BAR-DBL"]
      yield* api.sql`UPDATE rate_plans SET base_price = 150 WHERE id = ${plan}`.pipe(Effect.orDie)
      const quote = yield* changeQuote(api, booked.reservation_id, { check_out: "2031-08-13", include: "trace" })
      yield* api.sql`UPDATE rate_plans SET base_price = 120 WHERE id = ${plan}`.pipe(Effect.orDie)
      const kept = { step: "kept", amount: "120.00", detail: "the amount this night was booked at" }
      expect(quote.nights.map((n) => [n.date, n.amount, n.kept, n.trace])).toEqual([
        ["2031-08-10", "120.00", true, [kept]],
        ["2031-08-11", "120.00", true, [kept]],
        ["2031-08-12", "150.00", false, [{ step: "base", amount: "150.00", detail: expect.any(String) }, { step: "rounding", amount: "150.00" }]]
      ])
      // Without `include=trace` no night has one; a stay left as it is shows its nights kept, with the same entry.
      const plain = yield* changeQuote(api, booked.reservation_id, { check_out: "2031-08-13" })
      expect(plain.nights.every((n) => n.trace === undefined)).toBe(true)
      const same = yield* changeQuote(api, booked.reservation_id, { include: "trace" })
      expect(same.nights.map((n) => n.trace)).toEqual([[kept], [kept]])
    }))
})
