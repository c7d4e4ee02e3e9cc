import { describe, expect, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as fc from "fast-check"
import {
  cancelStep,
  checkModifierValues,
  codeAlphabet,
  confirmationCodeFrom,
  confirmStep,
  HoldConfirm,
  HoldCreate,
  holdExpiresAt,
  isConfirmationCode,
  isExpiredHold,
  loyaltyPoints,
  type ModifierSpec,
  parsePaymentAmount,
  settleCancellation
} from "../../src/booking/index.js"
import * as Money from "../../src/money/Money.js"

const modifiers: ReadonlyArray<ModifierSpec> = [
  { key: "diet", type: "select", options: ["none", "vegan"], required: false },
  { key: "flight", type: "text", required: true },
  { key: "pax", type: "number", required: false },
  { key: "child_seat", type: "boolean", required: false },
  { key: "arrival", type: "date", required: false }
]

const paramOf = (result: Result.Result<unknown, { readonly param?: string | undefined }>) =>
  Result.match(result, { onFailure: (e) => e.param, onSuccess: () => undefined })

describe("modifier values", () => {
  const at = "add_ons[0].modifier_values"

  it("keeps the declared values, drops nulls and absent optional ones", () => {
    const result = checkModifierValues(modifiers, { flight: "TP12", diet: "vegan", pax: 2, child_seat: null }, at)
    expect(result).toEqual(Result.succeed({ diet: "vegan", flight: "TP12", pax: 2 }))
  })

  it("names the exact path of an unknown key, a missing required key, a wrong type, a value not an option", () => {
    expect(paramOf(checkModifierValues(modifiers, { flight: "x", spice: "hot" }, at))).toBe(`${at}.spice`)
    expect(paramOf(checkModifierValues(modifiers, {}, at))).toBe(`${at}.flight`)
    expect(paramOf(checkModifierValues(modifiers, { flight: null }, at))).toBe(`${at}.flight`)
    expect(paramOf(checkModifierValues(modifiers, { flight: 12 }, at))).toBe(`${at}.flight`)
    expect(paramOf(checkModifierValues(modifiers, { flight: "x", diet: "keto" }, at))).toBe(`${at}.diet`)
    expect(paramOf(checkModifierValues(modifiers, { flight: "x", pax: "2" }, at))).toBe(`${at}.pax`)
    expect(paramOf(checkModifierValues(modifiers, { flight: "x", pax: Number.NaN }, at))).toBe(`${at}.pax`)
    expect(paramOf(checkModifierValues(modifiers, { flight: "x", child_seat: "yes" }, at))).toBe(`${at}.child_seat`)
    expect(paramOf(checkModifierValues(modifiers, { flight: "x", arrival: "2031-02-30" }, at))).toBe(`${at}.arrival`)
    expect(paramOf(checkModifierValues(modifiers, { flight: "x", arrival: "2031-02-28" }, at))).toBeUndefined()
    expect(paramOf(checkModifierValues([], { anything: 1 }, at))).toBe(`${at}.anything`)
  })
})

describe("confirmation codes", () => {
  it("are 8 characters of an alphabet without look-alikes", () => {
    expect(codeAlphabet).toHaveLength(32)
    expect(codeAlphabet).not.toMatch(/[01IO]/)
    fc.assert(fc.property(fc.uint8Array({ minLength: 8, maxLength: 8 }), (bytes) => {
      const code = confirmationCodeFrom(bytes)
      expect(isConfirmationCode(code)).toBe(true)
    }))
    expect(confirmationCodeFrom([0, 1, 2, 3, 4, 5, 6, 31])).toBe("ABCDEFG9")
  })
})

describe("transitions", () => {
  const now = new Date("2031-06-01T10:00:00Z")
  const live = { status: "tentative", holdExpiresAt: new Date(now.getTime() + 1) }
  const expired = { status: "tentative", holdExpiresAt: now }

  it("a hold expires at the instant of hold_expires_at", () => {
    expect(holdExpiresAt(now).toISOString()).toBe("2031-06-01T10:15:00.000Z")
    expect(isExpiredHold(live, now)).toBe(false)
    expect(isExpiredHold(expired, now)).toBe(true)
    expect(isExpiredHold({ status: "confirmed", holdExpiresAt: now }, now)).toBe(false)
  })

  it("confirm: live hold → confirm; confirmed → already; expired (swept or not) → hold_expired; others → not_confirmable", () => {
    const confirmError = (facts: Parameters<typeof confirmStep>[0]) =>
      Result.getFailure(confirmStep(facts, now)).pipe((e) => e._tag === "Some" && e.value._tag)
    expect(confirmStep({ ...live, cancellationReason: null }, now)).toEqual(Result.succeed("confirm"))
    expect(confirmStep({ status: "confirmed", holdExpiresAt: now, cancellationReason: null }, now)).toEqual(Result.succeed("already_confirmed"))
    expect(confirmError({ ...expired, cancellationReason: null })).toBe("HoldExpired")
    expect(confirmError({ status: "cancelled", holdExpiresAt: now, cancellationReason: "hold_expired" })).toBe("HoldExpired")
    expect(confirmError({ status: "cancelled", holdExpiresAt: null, cancellationReason: "guest asked" })).toBe("NotConfirmable")
    for (const status of ["cancelled", "checked_in", "checked_out", "no_show"]) {
      expect(confirmError({ status, holdExpiresAt: null, cancellationReason: null }), status).toBe("NotConfirmable")
    }
  })

  it("cancel: live hold and confirmed only; everything else → not_cancellable", () => {
    expect(cancelStep(live, now)).toEqual(Result.succeed("cancel_hold"))
    expect(cancelStep({ status: "confirmed", holdExpiresAt: null }, now)).toEqual(Result.succeed("cancel_confirmed"))
    for (const facts of [expired, ...["cancelled", "checked_in", "checked_out", "no_show"].map((status) => ({ status, holdExpiresAt: null }))]) {
      const left = Result.getFailure(cancelStep(facts, now))
      expect(left._tag === "Some" && left.value._tag, facts.status).toBe("NotCancellable")
    }
  })
})

describe("money of confirm and cancel", () => {
  it("payment_amount: a JSON number or a decimal string, read as the decimal it denotes", () => {
    const read = (value: unknown) => {
      const amount = parsePaymentAmount(value)
      return amount === undefined ? undefined : Money.toDb(amount)
    }
    expect(read(1310.4)).toBe("1310.4")
    expect(read("1310.40")).toBe("1310.4")
    expect(read(0)).toBe("0")
    const sum = parsePaymentAmount(0.1 + 0.2)
    expect(sum !== undefined && BigDecimal.equals(sum, BigDecimal.fromStringUnsafe("0.30000000000000004"))).toBe(true)
    for (const bad of [-1, "-1", "1e3", "12,50", "", true, null, Number.NaN, Number.POSITIVE_INFINITY, "2000000000"]) {
      expect(read(bad), String(bad)).toBeUndefined()
    }
  })

  it("loyalty: points per whole USD of room revenue", () => {
    expect(loyaltyPoints(BigDecimal.fromStringUnsafe("435.99"), 10)).toBe(4350)
    expect(loyaltyPoints(BigDecimal.fromStringUnsafe("0.99"), 10)).toBe(0)
    expect(loyaltyPoints(BigDecimal.fromStringUnsafe("100"), 0)).toBe(0)
    // a stay earns at most a billion points, however large (the ledger holds 32-bit entries)
    expect(loyaltyPoints(BigDecimal.fromStringUnsafe("31800000000.00"), 1_000_000)).toBe(1_000_000_000)
    expect(loyaltyPoints(BigDecimal.fromStringUnsafe("99999999.99"), 10)).toBe(999_999_990)
  })

  it("refund: the tier in force in the local calendar, rounded down; the fee is the rest of the paid amount", () => {
    const tiers = [
      { daysBeforeArrival: 7, refundPercent: 100 },
      { daysBeforeArrival: 2, refundPercent: 50 },
      { daysBeforeArrival: 0, refundPercent: 0 }
    ]
    const settle = (now: string, paid: string) =>
      settleCancellation({
        tiers,
        checkIn: "2031-07-10",
        timeZone: "Europe/Lisbon",
        now: new Date(now),
        paid: BigDecimal.fromStringUnsafe(paid),
        currency: "EUR"
      })
    const a = settle("2031-07-03T22:59:59Z", "216")
    expect([a.daysBeforeArrival, a.refundPercent, a.refundDueMinor, Money.toDb(a.fee)]).toEqual([7, 100, 21600n, "0"])
    const b = settle("2031-07-03T23:00:00Z", "108.01")
    expect([b.daysBeforeArrival, b.refundPercent, b.refundDueMinor, Money.toDb(b.refund), Money.toDb(b.fee)])
      .toEqual([6, 50, 5400n, "54", "54.01"])
    const c = settle("2031-07-08T23:00:00Z", "216")
    expect([c.refundPercent, c.refundDueMinor, Money.toDb(c.fee)]).toEqual([0, 0n, "216"])
    const unpaid = settle("2031-06-01T10:00:00Z", "0")
    expect([unpaid.refundPercent, unpaid.refundDueMinor, Money.toDb(unpaid.fee)]).toEqual([100, 0n, "0"])
  })
})

describe("request bodies", () => {
  it("hold: defaults stay absent, nulls are accepted, limits are enforced", () => {
    const decode = Schema.decodeUnknownResult(HoldCreate)
    const base = {
      room_type_id: "7f0c1a62-5a55-4a3e-9a7e-0a0b0c0d0e0f",
      rate_plan_id: "7f0c1a62-5a55-4a3e-9a7e-0a0b0c0d0e10",
      check_in: "2031-03-10",
      check_out: "2031-03-13",
      guest_id: "7f0c1a62-5a55-4a3e-9a7e-0a0b0c0d0e11",
      adults: 2
    }
    expect(Result.isSuccess(decode(base))).toBe(true)
    expect(Result.isSuccess(decode({ ...base, children: null, promo_code: null }))).toBe(true)
    expect(Result.isFailure(decode({ ...base, adults: 21 }))).toBe(true)
    expect(Result.isFailure(decode({ ...base, add_ons: Array.from({ length: 11 }, () => ({ service_id: base.guest_id })) })))
      .toBe(true)
  })

  it("confirm: payment_amount as a number or a decimal string", () => {
    const decode = Schema.decodeUnknownResult(HoldConfirm)
    expect(Result.isSuccess(decode({ payment_reference: "p", payment_amount: 12.5 }))).toBe(true)
    expect(Result.isSuccess(decode({ payment_reference: "p", payment_amount: "12.50" }))).toBe(true)
    expect(Result.isFailure(decode({ payment_reference: "p", payment_amount: "twelve" }))).toBe(true)
    expect(Result.isFailure(decode({ payment_reference: "" }))).toBe(true)
  })
})
