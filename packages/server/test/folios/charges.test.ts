import { expect, layer } from "@effect/vitest"
import {
  type Folio,
  InsufficientScope,
  InvalidParameters,
  InvalidStatusTransition,
  ReservationNotFound,
  ServiceNotFound
} from "@hotel/domain"
import { ChargePosted } from "@hotel/api/folios/Api"
import * as Effect from "effect/Effect"
import { cancel, count, planWithInclusions } from "../utils/booking.js"
import { bodyAs, clientOf, expectFailure } from "../utils/client.js"
import type { Inclusion } from "../utils/propertySetup.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import {
  book,
  charge,
  expire,
  forceStatus,
  getFolio,
  type LineWire,
  localDay,
  postCharge
} from "../utils/stay.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"

// POST /reservations/{id}/charges: 201 with the lines written and the folio's figures; a credit
// entitlement of the same category and currency is consumed first, as credit lines, never beyond its allowance.

const shape = (line: LineWire) => [line.kind, line.description, line.amount, line.currency, line.exchange_rate, line.revenue_category]

/** A plan on the fixture's DBL with the given credits (inclusions of kind `credit`). */
const planWithCredits = (api: TestApiService, credits: ReadonlyArray<Omit<Inclusion, "frequency"> & Partial<Pick<Inclusion, "frequency">>>) =>
  planWithInclusions(
    api,
    "Credits included",
    credits.map((credit) => ({ frequency: "perStay", inclusion_kind: "credit", ...credit }))
  )

const consumed = (api: TestApiService, reservationId: string) =>
  api.sql<{ label: string; allowance: string; consumed: string }>`
    SELECT label, allowance::text AS allowance, consumed::text AS consumed FROM entitlements
    WHERE reservation_id = ${reservationId} ORDER BY position`.pipe(
    Effect.orDie,
    Effect.map((rows) => rows.map((row) => [row.label, Number(row.allowance), Number(row.consumed)]))
  )

layer(TestApiLive, { excludeTestServices: true })("POST /reservations/{id}/charges", (it) => {
  it.effect("201: the charge line (unit price x quantity) and the folio's figures after it", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const booked = yield* book(api, { check_in: "2031-07-01", check_out: "2031-07-04" })
      const breakfast = api.property.services["BRK"]
      const res = yield* postCharge(api, booked.reservation_id, {
        description: "Breakfast for the room",
        amount: "15.25",
        currency: "EUR",
        revenue_category: "fnb",
        service_id: breakfast,
        quantity: 3
      })
      // The exact wire: status, header, these keys and no others.
      expect(res.status, res.text).toBe(201)
      expect(res.headers.get("cache-control")).toBe("no-store")
      const body = bodyAs(res, ChargePosted)
      expect(Object.keys(body).sort()).toEqual(
        ["balance", "balances", "charge_id", "credit_applied", "currency", "folio_id", "lines", "reservation_id", "total_charges"]
      )
      expect(body).toMatchObject({
        reservation_id: booked.reservation_id,
        folio_id: booked.folio_id,
        currency: "EUR",
        credit_applied: "0.00",
        balances: [{ currency: "EUR", charges: "439.35", payments: "393.60", balance: "45.75" }],
        balance: "45.75",
        total_charges: "439.35"
      })
      expect(body.lines).toHaveLength(1)
      expect(body.lines[0]).toMatchObject({
        id: body.charge_id,
        kind: "charge",
        description: "Breakfast for the room",
        amount: "45.75",
        currency: "EUR",
        exchange_rate: "1",
        revenue_category: "fnb",
        service_id: breakfast,
        quantity: 3
      })
      // The folio shows the same line, last.
      const folio = yield* getFolio(api, booked.folio_id)
      expect(folio.lines[folio.lines.length - 1]).toEqual(body.lines[0])
      // quantity defaults to 1; a line is rounded half away from zero to minor units once.
      const single = yield* charge(api, booked.reservation_id, { amount: "0.01", quantity: null, service_id: null })
      expect([single.lines[0].amount, single.lines[0].quantity, single.lines[0].service_id]).toEqual(["0.01", 1, null])
      const kwd = yield* charge(api, booked.reservation_id, { amount: "1.005", currency: "KWD", quantity: 99 })
      expect(kwd.lines[0].amount).toBe("99.495")
      const zero = yield* charge(api, booked.reservation_id, { description: "Complimentary", amount: "0" })
      expect(zero.lines[0].amount).toBe("0.00")
    }))

  it.effect("a folio's charges in one currency stay within 10^15 minor units: past it, 400 amount and nothing written", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const booked = yield* book(api, { check_in: "2031-07-05", check_out: "2031-07-06" })
      // CLF has 4 decimals: the most is 100,000,000,000.0000; one line comes to 98,999,999,999.9901
      const big: Partial<Folio.ChargePost> = { description: "Big", amount: "999999999.9999", currency: "CLF", quantity: 99 }
      expect((yield* charge(api, booked.reservation_id, big)).lines[0].amount).toBe("98999999999.9901")
      const before = (yield* getFolio(api, booked.folio_id)).lines.length
      yield* expectFailure(charge(api, booked.reservation_id, big), InvalidParameters, "amount")
      expect((yield* getFolio(api, booked.folio_id)).lines.length).toBe(before)
      // what still fits is accepted, to the last minor unit
      const fits = yield* charge(api, booked.reservation_id, { ...big, amount: "500000000.0049", quantity: 2 })
      expect(fits.lines[0].amount).toBe("1000000000.0098")
      const last = { ...big, amount: "0.0001", quantity: 1 }
      expect((yield* charge(api, booked.reservation_id, last)).lines[0].amount).toBe("0.0001")
      yield* expectFailure(charge(api, booked.reservation_id, last), InvalidParameters, "amount")
    }))

  it.effect("accepted on a live hold, a confirmed and a checked-in stay; otherwise 409 invalid_status_transition", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      // A Minibar of 1.00 EUR the reservation's status refuses.
      const conflict = (id: string) => expectFailure(charge(api, id, { amount: "1.00" }), InvalidStatusTransition)

      const held = yield* book(api, { check_in: "2031-07-07", check_out: "2031-07-08" }, { tentative: true })
      const onHold = yield* charge(api, held.reservation_id, { amount: "5.00" })
      expect(onHold.balances).toEqual([{ currency: "EUR", charges: "136.20", payments: "0.00", balance: "136.20" }])
      yield* expire(api.sql, held.reservation_id)
      expect((yield* conflict(held.reservation_id)).message).toContain("expired")

      const stay = yield* book(api, { check_in: "2031-07-07", check_out: "2031-07-08" })
      yield* charge(api, stay.reservation_id)
      yield* forceStatus(api.sql, stay.reservation_id, "checked_in")
      yield* charge(api, stay.reservation_id)
      for (const status of ["checked_out", "no_show"]) {
        yield* forceStatus(api.sql, stay.reservation_id, status)
        const refused = yield* conflict(stay.reservation_id)
        expect(refused.message).toContain(status.replace("_", " "))
      }

      const cancelled = yield* book(api, { check_in: "2031-07-07", check_out: "2031-07-08" })
      expect((yield* cancel(api, cancelled.reservation_id)).status).toBe("cancelled")
      const lines = yield* count(api.sql, "folio_lines", { column: "folio_id", value: cancelled.folio_id })
      yield* conflict(cancelled.reservation_id)
      expect(yield* count(api.sql, "folio_lines", { column: "folio_id", value: cancelled.folio_id })).toBe(lines)
    }))

  it.effect("a credit of the category and currency is consumed first, up to and across its allowance", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* planWithCredits(api, [
        { label: "Spa credit", allocated_amount: "50.00", revenue_category: "spa" },
        { label: "Dining credit", allocated_amount: "20.00", frequency: "perNight", revenue_category: "fnb" },
        { label: "Bar credit", allocated_amount: "10.00", revenue_category: "fnb" }
      ])
      const booked = yield* book(api, { rate_plan_id: plan, check_in: "2031-07-14", check_out: "2031-07-17" })
      const owed = (yield* getFolio(api, booked.folio_id)).balances[0]
      expect(owed.balance).toBe("0.00")
      expect(yield* consumed(api, booked.reservation_id)).toEqual([["Spa credit", 50, 0], ["Dining credit", 60, 0], ["Bar credit", 10, 0]])

      // 30.00 of spa: wholly covered.
      const first = yield* charge(api, booked.reservation_id, { description: "Massage", amount: "30.00", revenue_category: "spa" })
      expect(first.credit_applied).toBe("30.00")
      expect(first.lines.map(shape)).toEqual([
        ["charge", "Massage", "30.00", "EUR", "1", "spa"],
        ["credit", "Credit: Spa credit", "30.00", "EUR", "1", "spa"]
      ])
      expect(first.lines[1]).toMatchObject({ service_id: null, quantity: null })
      expect(first.balances[0].balance).toBe("0.00")

      // 2 x 15.00 of spa: the 20.00 left, the rest owed.
      const second = yield* charge(api, booked.reservation_id, { description: "Sauna", amount: "15.00", quantity: 2, revenue_category: "spa" })
      expect(second.credit_applied).toBe("20.00")
      expect(second.lines.map((l) => [l.kind, l.amount])).toEqual([["charge", "30.00"], ["credit", "20.00"]])
      expect(second.balances[0]).toMatchObject({ charges: "549.00", payments: "539.00", balance: "10.00" })

      // Spent: nothing more is covered.
      const third = yield* charge(api, booked.reservation_id, { description: "Facial", amount: "5.00", revenue_category: "spa" })
      expect([third.credit_applied, third.lines.length]).toEqual(["0.00", 1])

      // Another category, another currency: not this credit.
      const usd = yield* charge(api, booked.reservation_id, { description: "Dinner", amount: "40.00", currency: "USD", revenue_category: "fnb" })
      expect([usd.credit_applied, usd.lines.length]).toEqual(["0.00", 1])
      const other = yield* charge(api, booked.reservation_id, { description: "Laundry", amount: "40.00", revenue_category: "other" })
      expect([other.credit_applied, other.lines.length]).toEqual(["0.00", 1])

      // 65.00 of fnb: the first fnb credit (3 nights x 20.00) entirely, then 5.00 of the next, in stored order.
      const dinner = yield* charge(api, booked.reservation_id, { description: "Tasting menu", amount: "65.00", revenue_category: "fnb" })
      expect(dinner.credit_applied).toBe("65.00")
      expect(dinner.lines.map(shape)).toEqual([
        ["charge", "Tasting menu", "65.00", "EUR", "1", "fnb"],
        ["credit", "Credit: Dining credit", "60.00", "EUR", "1", "fnb"],
        ["credit", "Credit: Bar credit", "5.00", "EUR", "1", "fnb"]
      ])
      const more = yield* charge(api, booked.reservation_id, { description: "Wine", amount: "12.00", revenue_category: "fnb" })
      expect(more.lines.map((l) => [l.kind, l.description, l.amount])).toEqual([
        ["charge", "Wine", "12.00"],
        ["credit", "Credit: Bar credit", "5.00"]
      ])
      expect(yield* consumed(api, booked.reservation_id)).toEqual([["Spa credit", 50, 50], ["Dining credit", 60, 60], ["Bar credit", 10, 10]])

      const folio = yield* getFolio(api, booked.folio_id)
      expect(folio.balances).toEqual([
        { currency: "EUR", charges: "671.00", payments: "609.00", balance: "62.00" },
        { currency: "USD", charges: "40.00", payments: "0.00", balance: "40.00" }
      ])
      expect(folio.balance).toBe("98.80")

      // A cancel voids the charges and the credits that paid for them alike.
      expect((yield* cancel(api, booked.reservation_id)).status).toBe("cancelled")
      const voided = yield* getFolio(api, booked.folio_id)
      expect(voided.balances.map((b) => b.balance)).toEqual(["0.00", "0.00"])
      expect(voided.balance).toBe("0.00")
    }))

  it.effect("concurrent charges never consume a credit beyond its allowance", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const plan = yield* planWithCredits(api, [{ label: "Spa credit", allocated_amount: "50.00", revenue_category: "spa" }])
      const booked = yield* book(api, { rate_plan_id: plan, check_in: "2031-07-21", check_out: "2031-07-22" })
      const results = yield* Effect.all(
        Array.from({ length: 8 }, (_, i) =>
          charge(api, booked.reservation_id, { description: `Treatment ${i}`, amount: "15.00", revenue_category: "spa" })),
        { concurrency: "unbounded" }
      )
      const applied = results.map((r) => Number(r.credit_applied)).sort((a, b) => b - a)
      expect(applied).toEqual([15, 15, 15, 5, 0, 0, 0, 0])
      expect(yield* consumed(api, booked.reservation_id)).toEqual([["Spa credit", 50, 50]])
      const folio = yield* getFolio(api, booked.folio_id)
      expect(folio.lines.filter((l) => l.kind === "credit").map((l) => Number(l.amount)).reduce((a, b) => a + b, 0)).toBe(50)
      expect(folio.balances[0].balance).toBe("70.00")
    }))

  it.effect("field validation: 400 invalid_parameters naming the field", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const booked = yield* book(api, { check_in: "2031-07-28", check_out: "2031-07-29" })
      const valid = { description: "Minibar", amount: "10.00", currency: "EUR", revenue_category: "other" }
      const cases: ReadonlyArray<[Record<string, unknown>, string]> = [
        [{ description: undefined }, "description"],
        [{ description: "" }, "description"],
        [{ description: "x".repeat(201) }, "description"],
        [{ description: 12 }, "description"],
        [{ amount: undefined }, "amount"],
        [{ amount: 10.5 }, "amount"],
        [{ amount: "ten" }, "amount"],
        [{ amount: "10.001" }, "amount"],
        [{ amount: "-1.00" }, "amount"],
        [{ amount: "1000000001" }, "amount"],
        [{ amount: "10.5", currency: "JPY" }, "amount"],
        [{ currency: undefined }, "currency"],
        [{ currency: "eur" }, "currency"],
        [{ currency: "XYZ" }, "currency"],
        [{ revenue_category: "bar" }, "revenue_category"],
        [{ revenue_category: undefined }, "revenue_category"],
        [{ quantity: 0 }, "quantity"],
        [{ quantity: 100 }, "quantity"],
        [{ quantity: 1.5 }, "quantity"],
        [{ quantity: "2" }, "quantity"],
        [{ service_id: "breakfast" }, "service_id"]
      ]
      for (const [over, param] of cases) {
        const body = Object.fromEntries(Object.entries({ ...valid, ...over }).filter(([, v]) => v !== undefined))
        expectInvalid(yield* postCharge(api, booked.reservation_id, body), param)
      }
      expectError(yield* postCharge(api, booked.reservation_id, []), 400, "invalid_request", "invalid_parameters")
      expectError(yield* api.post(`/reservations/${booked.reservation_id}/charges`, undefined, { raw: "{" }), 400, "invalid_request", "invalid_json")
      // Field validation (here the amount's precision in its currency) comes before the referenced resources.
      yield* expectFailure(charge(api, missingId, { amount: "1.001" }), InvalidParameters, "amount")
      yield* expectFailure(charge(api, booked.reservation_id, { service_id: missingId }), ServiceNotFound)
      expect(yield* count(api.sql, "folio_lines", { column: "folio_id", value: booked.folio_id })).toBe(4)
    }))

  it.effect("scope folios:write; another property's or an unknown reservation is 404; replays create no second charge", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const booked = yield* book(api, { check_in: localDay(40), check_out: localDay(41) })
      // `charge` posts a Minibar of 10.00 EUR.
      for (const scopes of [["reservations:write"], ["reservations:read", "guests:write"]] as const) {
        const key = yield* api.createKey({ scopes })
        const denied = yield* expectFailure(charge(api, booked.reservation_id, {}, { key }), InsufficientScope)
        expect(denied.message).toContain("folios:write")
      }
      const writer = yield* api.createKey({ scopes: ["folios:write"] })
      expect((yield* charge(api, booked.reservation_id, {}, { key: writer })).reservation_id).toBe(booked.reservation_id)

      for (const id of [missingId, booked.folio_id]) yield* expectFailure(charge(api, id), ReservationNotFound)
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      const body = { description: "Minibar", amount: "10.00", currency: "EUR", revenue_category: "other" }
      expectError(yield* postCharge(api, "R-1", body), 404, "not_found", "reservation_not_found")
      const other = yield* api.importProperty()
      const otherKey = yield* api.createKey({ propertyId: other.property_id })
      yield* expectFailure(charge(api, booked.reservation_id, {}, { key: otherKey }), ReservationNotFound)
      // Another property's service is an unknown one.
      yield* expectFailure(charge(api, booked.reservation_id, { service_id: other.services["BRK"] }), ServiceNotFound)

      const keyed = yield* clientOf(api, { headers: { "idempotency-key": globalThis.crypto.randomUUID() } })
      const post = () =>
        keyed.charges.post({ headers: {},
          params: { id: booked.reservation_id },
          payload: { description: "Minibar", amount: "10.00", currency: "EUR", revenue_category: "other" },
          responseMode: "decoded-and-response"
        })
      const [once, onceRes] = yield* post()
      const [again, againRes] = yield* post()
      expect([onceRes.status, againRes.status]).toEqual([201, 201])
      expect(againRes.headers["idempotent-replayed"]).toBe("true")
      expect(again.charge_id).toBe(once.charge_id)
      const folio = yield* getFolio(api, booked.folio_id)
      expect(folio.lines.filter((l) => l.kind === "charge")).toHaveLength(2)
    }))
})
