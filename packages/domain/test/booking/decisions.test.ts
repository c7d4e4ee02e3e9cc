import { describe, expect, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as Result from "effect/Result"
import * as fc from "fast-check"
import {
  cancellationLines,
  type CancellationSettlement,
  confirmPayment,
  earnOnConfirm,
  loyaltyPoints,
  pointsToReverse
} from "../../src/booking/index.js"
import * as Money from "../../src/money/Money.js"
import * as Rates from "../../src/rates/index.js"
import { assignRoom, type CheckInFacts, checkNamedRoom, type RoomFacts } from "../../src/stays/checkIn.js"

const amount = (s: string) => Money.fromDb(s)
const outcome = <A, E extends { readonly _tag: string }>(either: Result.Result<A, E>) =>
  Result.match(either, { onFailure: (error) => error._tag, onSuccess: (value) => value })

describe("confirm: the payment recorded", () => {
  const due = { amount: amount("262.08"), currency: "EUR" }
  it.each([
    { paymentCurrency: null, paymentAmount: null, expected: "262.08" },
    { paymentCurrency: "eur", paymentAmount: "262.08", expected: "262.08" },
    { paymentCurrency: "EUR", paymentAmount: 262.08, expected: "262.08" },
    { paymentCurrency: null, paymentAmount: "262.080", expected: "262.08" },
    { paymentCurrency: "USD", paymentAmount: "262.08", expected: "CurrencyMismatch" },
    { paymentCurrency: "USD", paymentAmount: "1", expected: "CurrencyMismatch" },
    { paymentCurrency: null, paymentAmount: "262.07", expected: "AmountMismatch" },
    { paymentCurrency: "EUR", paymentAmount: 0, expected: "AmountMismatch" }
  ])("currency $paymentCurrency, amount $paymentAmount: $expected", ({ expected, ...assertion }) => {
    const result = outcome(Result.map(confirmPayment(due, assertion), (paid) => BigDecimal.format(paid)))
    expect(result).toBe(expected)
  })

  it("an assertion of exactly the amount due always confirms that amount", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000 }), (cents) => {
      const owed = Money.fromMinor(BigInt(cents), "EUR")
      const paid = confirmPayment({ amount: owed, currency: "EUR" }, {
        paymentCurrency: "EUR",
        paymentAmount: Money.format(owed, "EUR")
      })
      expect(Result.isSuccess(paid) && BigDecimal.equals(paid.success, owed)).toBe(true)
    }))
  })
})

describe("confirm: the loyalty earn", () => {
  it.each([
    { currency: "USD", revenue: "250.99", perUsd: 10, expected: { _tag: "Earn", points: 2500 } },
    { currency: "USD", revenue: "0.99", perUsd: 10, expected: { _tag: "None" } },
    { currency: "USD", revenue: "100", perUsd: 0, expected: { _tag: "None" } },
    { currency: "EUR", revenue: "250", perUsd: 10, expected: { _tag: "Skipped" } },
    { currency: "usd", revenue: "250", perUsd: 10, expected: { _tag: "Skipped" } }
  ])("$currency $revenue at $perUsd/USD", ({ currency, expected, perUsd, revenue }) => {
    expect(earnOnConfirm(currency, amount(revenue), perUsd)).toEqual(expected)
  })

  it("a USD stay earns exactly the whole-dollar points, and only USD stays earn", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 20 }), (cents, perUsd) => {
      const revenue = Money.fromMinor(BigInt(cents), "USD")
      const earn = earnOnConfirm("USD", revenue, perUsd)
      const points = Math.floor(cents / 100) * perUsd
      expect(earn).toEqual(points > 0 ? { _tag: "Earn", points } : { _tag: "None" })
      expect(loyaltyPoints(revenue, perUsd)).toBe(points)
      expect(earnOnConfirm("EUR", revenue, perUsd)).toEqual({ _tag: "Skipped" })
    }))
  })
})

describe("cancel: the refund settlement on the folio", () => {
  const settlement = (paid: string, refund: string, refundPercent: number): CancellationSettlement => ({
    daysBeforeArrival: 3,
    refundPercent,
    refundDueMinor: Money.toMinorFloor(amount(refund), "EUR"),
    refund: amount(refund),
    fee: BigDecimal.subtract(amount(paid), amount(refund))
  })
  const lines = (paid: string, refund: string, percent: number) =>
    cancellationLines(amount(paid), settlement(paid, refund, percent)).map((line) =>
      `${line.kind} ${BigDecimal.format(line.amount)} ${line.description}`
    )

  it("paid nothing: no line", () => {
    expect(lines("0", "0", 100)).toEqual([])
  })
  it("full refund: one refund line", () => {
    expect(lines("200", "200", 100)).toEqual(["refund 200 Refund due on cancellation (100%)"])
  })
  it("no refund: one fee line", () => {
    expect(lines("200", "0", 0)).toEqual(["cancellation_fee 200 Cancellation fee (100% of the amount paid)"])
  })
  it("part refund: refund then fee, which add up to what was paid", () => {
    expect(lines("200", "100", 50)).toEqual([
      "refund 100 Refund due on cancellation (50%)",
      "cancellation_fee 100 Cancellation fee (50% of the amount paid)"
    ])
  })
  it("the lines always add up to the amount paid", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 100 }), (cents, pct) => {
      const paid = Money.fromMinor(BigInt(cents), "EUR")
      const refund = Money.fromMinor(BigInt(Math.floor((cents * pct) / 100)), "EUR")
      const written = cancellationLines(paid, {
        daysBeforeArrival: 0,
        refundPercent: pct,
        refundDueMinor: Money.toMinorFloor(refund, "EUR"),
        refund,
        fee: BigDecimal.subtract(paid, refund)
      })
      expect(BigDecimal.equals(Money.sum(written.map((line) => line.amount)), paid)).toBe(true)
    }))
  })
  it("the points taken back are the net earn, never a credit", () => {
    expect(pointsToReverse(250)).toBe(-250)
    expect(pointsToReverse(0)).toBe(0)
    expect(pointsToReverse(-10)).toBe(0)
  })
})

describe("check-in: the room assigned", () => {
  const stay: CheckInFacts = { roomTypeId: "dbl", roomTypeName: "Double", checkIn: "2031-03-10", checkOut: "2031-03-12" }
  const room = (id: string, roomTypeId = "dbl", retired = false): RoomFacts => ({ id, number: id, roomTypeId, retired })

  it.each([
    { roomId: null, found: undefined, expected: undefined },
    { roomId: "101", found: room("101"), expected: undefined },
    { roomId: "999", found: undefined, expected: "RoomNotFound" },
    { roomId: "301", found: room("301", "ste"), expected: "InvalidParameters" }
  ])("named room $roomId: $expected", ({ expected, found, roomId }) => {
    expect(outcome(checkNamedRoom(roomId, found, stay))).toBe(expected)
  })

  it.each([
    { named: undefined, free: ["101", "102"], expected: "101" },
    { named: undefined, free: [], expected: "NoAvailability" },
    { named: room("102"), free: ["101", "102"], expected: "102" },
    { named: room("103"), free: ["101", "102"], expected: "RoomUnavailable" },
    { named: room("104", "dbl", true), free: ["104"], expected: "RoomUnavailable" }
  ])("named $named.id, free $free: $expected", ({ expected, free, named }) => {
    expect(outcome(assignRoom(named, free, stay))).toBe(expected)
  })
})

describe("rate plan change: the rules on the stored plan", () => {
  const fields = (overrides: Partial<Rates.RatePlan.RatePlanFields>) =>
    ({ currency: "EUR", single_guest_discount_type: "fixed", derived_from_id: null, is_active: true, ...overrides }) as Rates.RatePlan.RatePlanFields
  const stored: Rates.RatePlan.StoredPlanFacts = {
    currency: "EUR",
    single_guest_discount_type: "fixed",
    derived_from_id: null,
    is_default: false,
    liveChildren: 0,
    weekdayPricedIntervals: 0,
    extraGuestIntervals: 0,
    discountIntervals: 0
  }
  const check = (facts: Partial<Rates.RatePlan.StoredPlanFacts>, change: Partial<Rates.RatePlan.RatePlanFields>) =>
    outcome(Rates.RatePlan.checkUpdate({ ...stored, ...facts }, fields(change)))

  it.each<{
    facts: Partial<Rates.RatePlan.StoredPlanFacts>
    change: Partial<Rates.RatePlan.RatePlanFields>
    expected: string | undefined
  }>([
    { facts: {}, change: {}, expected: undefined },
    { facts: { liveChildren: 1 }, change: { currency: "USD" }, expected: "InvalidParameters" },
    { facts: { liveChildren: 1 }, change: {}, expected: undefined },
    { facts: {}, change: { currency: "USD" }, expected: undefined },
    // an interval's amounts are in the plan's currency: changing it would reread them
    { facts: { weekdayPricedIntervals: 1 }, change: { currency: "JPY" }, expected: "InvalidParameters" },
    { facts: { extraGuestIntervals: 1 }, change: { currency: "JPY" }, expected: "InvalidParameters" },
    { facts: { discountIntervals: 1 }, change: { currency: "JPY" }, expected: "InvalidParameters" },
    { facts: { discountIntervals: 1, single_guest_discount_type: "percent" }, change: { currency: "JPY", single_guest_discount_type: "percent" }, expected: undefined },
    { facts: { discountIntervals: 1 }, change: { single_guest_discount_type: "percent" }, expected: "InvalidParameters" },
    { facts: { weekdayPricedIntervals: 1 }, change: { single_guest_discount_type: "percent" }, expected: undefined },
    { facts: { weekdayPricedIntervals: 2 }, change: { derived_from_id: "p" }, expected: "InvalidParameters" },
    { facts: { weekdayPricedIntervals: 2, derived_from_id: "q" }, change: { derived_from_id: "p" }, expected: undefined },
    { facts: { is_default: true }, change: { is_active: false }, expected: "DefaultRatePlanProtected" },
    { facts: { is_default: false }, change: { is_active: false }, expected: undefined }
  ])("$facts then $change: $expected", ({ change, expected, facts }) => {
    expect(check(facts, change)).toBe(expected)
  })
})
