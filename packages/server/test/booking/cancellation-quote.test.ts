import { expect, layer } from "@effect/vitest"
import { InsufficientScope, NotCancellable, ReservationNotFound, Visibility } from "@hotel/domain"
import { cancellationFacts, settlementAt } from "@hotel/persistence/booking/CancellationQuote"
import * as Effect from "effect/Effect"
import { CancellationQuote } from "@hotel/api/booking/Api"
import { cancel, count, getReservation } from "../utils/booking.js"
import { bodyAs, clientOf, expectFailure } from "../utils/client.js"
import type { RequestOptions } from "../utils/http.js"
import { expectError, missingId } from "../utils/rateManagement.js"
import { book, charge, expire, forceStatus, localDay, timeZone } from "../utils/stay.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"

// GET /reservations/{id}/cancellation-quote: what a cancel now would owe, computed as the cancel
// computes it, without changing anything. The fixture's policy: 7+ days before arrival 100%, 2+ days 50%, then 0%.

const getQuote = (api: TestApiService, id: string, options?: RequestOptions) =>
  api.get(`/reservations/${id}/cancellation-quote`, options)

/** A quote that must succeed (200). */
const quote = (api: TestApiService, id: string, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.cancellationQuote.get({ params: { id } }))

/** The start of a local date at the property, as the UTC instant a term ends. */
const startOf = (offset: number) => Visibility.startOfLocalDay(localDay(offset), timeZone).toISOString()

/** A quote (or, with `cancel`, the cancel) a reservation's state refuses: 409 not_cancellable, decoded. */
const notCancellable = (api: TestApiService, id: string, call: "quote" | "cancel" = "quote") =>
  call === "quote" ? expectFailure(quote(api, id), NotCancellable) : expectFailure(cancel(api, id), NotCancellable)

layer(TestApiLive, { excludeTestServices: true })("GET /reservations/{id}/cancellation-quote", (it) => {
  it.effect("in every tier the quote is what the cancel then owes", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const cases = [
        { arrival: 10, percent: 100, minor: 39360, until: startOf(4) },
        { arrival: 3, percent: 50, minor: 19680, until: startOf(2) },
        { arrival: 1, percent: 0, minor: 0, until: null },
        { arrival: 0, percent: 0, minor: 0, until: null }
      ]
      for (const c of cases) {
        const stay = yield* book(api, { check_in: localDay(c.arrival), check_out: localDay(c.arrival + 3) })
        // The exact wire: the header, these keys and no others.
        const res = yield* getQuote(api, stay.reservation_id)
        expect(res.headers.get("cache-control")).toBe("no-store")
        const body = bodyAs(res, CancellationQuote)
        expect(Object.keys(body).sort()).toEqual(
          ["currency", "quoted_at", "refund_due_minor", "refund_percent", "reservation_id", "tier_until"]
        )
        expect(body, `arrival in ${c.arrival} days`).toMatchObject({
          reservation_id: stay.reservation_id,
          refund_due_minor: c.minor,
          currency: "EUR",
          refund_percent: c.percent,
          tier_until: c.until
        })
        expect(Math.abs(Date.parse(body.quoted_at) - Date.now())).toBeLessThan(60_000)
        const cancelled = yield* cancel(api, stay.reservation_id)
        expect(cancelled.refund_due_minor, `arrival in ${c.arrival} days`).toBe(body.refund_due_minor)
        // Once cancelled, nothing more is owed by a cancel: the quote is refused like the cancel.
        yield* notCancellable(api, stay.reservation_id)
      }
    }))

  it.effect("a quote changes nothing; posted charges are not money paid", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const stay = yield* book(api, { check_in: localDay(20), check_out: localDay(22) })
      const rows = Effect.all({
        lines: count(api.sql, "folio_lines", { column: "folio_id", value: stay.folio_id }),
        ledger: count(api.sql, "loyalty_ledger", { column: "reservation_id", value: stay.reservation_id })
      })
      const before = yield* rows
      const first = yield* quote(api, stay.reservation_id)
      const second = yield* quote(api, stay.reservation_id)
      expect(second).toEqual({ ...first, quoted_at: second.quoted_at })
      expect(yield* rows).toEqual(before)
      const reservation = yield* getReservation(api, stay.reservation_id)
      expect(reservation).toMatchObject({ status: "confirmed", folio_balance: "0.00" })
      // 2 nights: 240.00 + VAT 14.40 + city tax 8.00 = 262.40 paid.
      expect(first).toMatchObject({ refund_due_minor: 26240, refund_percent: 100 })
      yield* charge(api, stay.reservation_id, { amount: "99.00" })
      expect((yield* quote(api, stay.reservation_id)).refund_due_minor).toBe(26240)
      // The facts a cancel reads under its row lock give the figures the quote shows.
      const locked = yield* cancellationFacts(api.sql, api.property.property_id, stay.reservation_id, "lock").pipe(
        api.sql.withTransaction,
        Effect.orDie
      )
      expect(locked.map((facts) => settlementAt(facts, new Date()).settlement.refundDueMinor)).toEqual([26240n])
      expect((yield* cancel(api, stay.reservation_id)).refund_due_minor).toBe(26240)
    }))

  it.effect("a hold quotes its policy percentage with nothing owed; a USD stay quotes in USD", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const held = yield* book(api, { check_in: localDay(30), check_out: localDay(31) }, { tentative: true })
      const onHold = yield* quote(api, held.reservation_id)
      expect(onHold).toMatchObject({ refund_due_minor: 0, currency: "EUR", refund_percent: 100, tier_until: startOf(24) })
      expect((yield* cancel(api, held.reservation_id)).refund_due_minor).toBe(0)

      const usd = yield* book(api, {
        rate_plan_id: api.property.rate_plans["USD-DBL"],
        check_in: localDay(5),
        check_out: localDay(7)
      })
      const inUsd = yield* quote(api, usd.reservation_id)
      const paidMinor = Math.round(Number(usd.total) * 100)
      expect(inUsd).toMatchObject({ currency: "USD", refund_percent: 50, refund_due_minor: Math.floor(paidMinor / 2), tier_until: startOf(4) })
      expect((yield* cancel(api, usd.reservation_id)).refund_due_minor).toBe(inUsd.refund_due_minor)
    }))

  it.effect("a reservation a cancel would refuse is 409 not_cancellable", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const held = yield* book(api, { check_in: localDay(12), check_out: localDay(13) }, { tentative: true })
      yield* expire(api.sql, held.reservation_id)
      // The quote's refusal on the wire once; the typed client checks the others.
      const expired = expectError(yield* getQuote(api, held.reservation_id), 409, "conflict", "not_cancellable")
      expect(expired.message).toContain("expired")
      yield* notCancellable(api, held.reservation_id, "cancel")

      const arriving = yield* book(api, { check_in: localDay(0), check_out: localDay(1) })
      const params = { id: arriving.reservation_id }
      expect((yield* api.client.stay.checkIn({ headers: {}, params, payload: {} })).status).toBe("checked_in")
      expect((yield* notCancellable(api, arriving.reservation_id)).message).toContain("checked in")
      expect((yield* api.client.stay.checkOut({ headers: {}, params })).status).toBe("checked_out")
      expect((yield* notCancellable(api, arriving.reservation_id)).message).toContain("checked out")

      const missed = yield* book(api, { check_in: localDay(14), check_out: localDay(15) })
      yield* forceStatus(api.sql, missed.reservation_id, "no_show")
      yield* notCancellable(api, missed.reservation_id)
      yield* notCancellable(api, missed.reservation_id, "cancel")
    }))

  it.effect("scope reservations:read; unknown, malformed and another property's reservations are 404", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const stay = yield* book(api, { check_in: localDay(50), check_out: localDay(51) })
      for (const scopes of [["reservations:write"], ["catalog:read", "folios:write"]] as const) {
        const key = yield* api.createKey({ scopes })
        const denied = yield* expectFailure(quote(api, stay.reservation_id, { key }), InsufficientScope)
        expect(denied.message).toContain("reservations:read")
      }
      const reader = yield* api.createKey({ scopes: ["reservations:read"] })
      expect((yield* quote(api, stay.reservation_id, { key: reader })).refund_percent).toBe(100)
      for (const id of [missingId, stay.folio_id]) yield* expectFailure(quote(api, id), ReservationNotFound)
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      expectError(yield* getQuote(api, "R-1"), 404, "not_found", "reservation_not_found")
      const other = yield* api.importProperty()
      const otherKey = yield* api.createKey({ propertyId: other.property_id })
      yield* expectFailure(quote(api, stay.reservation_id, { key: otherKey }), ReservationNotFound)
    }))
})
