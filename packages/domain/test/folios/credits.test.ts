import { describe, expect, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as Result from "effect/Result"
import * as fc from "fast-check"
import { folioBalances, voidedByFolio } from "../../src/folios/balances.js"
import { chargeLineAmount, chargeStep } from "../../src/folios/charges.js"
import { type CreditEntitlement, consumeCredits, coveredBy, remainingOf } from "../../src/folios/credits.js"
import { Money } from "../../src/money/index.js"

const d = BigDecimal.fromStringUnsafe
const fmt = (amount: BigDecimal.BigDecimal, currency = "EUR") => Money.format(amount, currency)

const credit = (id: string, allowance: string, consumed = "0", over: Partial<CreditEntitlement> = {}): CreditEntitlement => ({
  id,
  label: `Credit ${id}`,
  revenueCategory: "spa",
  currency: "EUR",
  allowance: d(allowance),
  consumed: d(consumed),
  ...over
})

const uses = (credits: ReadonlyArray<CreditEntitlement>, amount: string, over: { currency?: string; revenueCategory?: string } = {}) =>
  consumeCredits(credits, { amount: d(amount), currency: over.currency ?? "EUR", revenueCategory: over.revenueCategory ?? "spa" })
    .map((use) => [use.entitlementId, fmt(use.amount), fmt(use.consumedAfter)])

describe("credit consumption", () => {
  it("covers a charge up to the remaining allowance, then across to the next credit in order", () => {
    expect(uses([credit("a", "50.00")], "30.00")).toEqual([["a", "30.00", "30.00"]])
    expect(uses([credit("a", "50.00", "30.00")], "30.00")).toEqual([["a", "20.00", "50.00"]])
    expect(uses([credit("a", "50.00", "50.00")], "30.00")).toEqual([])
    expect(uses([credit("a", "60.00"), credit("b", "10.00")], "65.00")).toEqual([["a", "60.00", "60.00"], ["b", "5.00", "5.00"]])
    expect(uses([credit("a", "60.00"), credit("b", "10.00")], "20.00")).toEqual([["a", "20.00", "20.00"]])
  })

  it("only a credit of the charge's category and currency, with something left, applies", () => {
    expect(uses([credit("a", "50.00")], "10.00", { revenueCategory: "fnb" })).toEqual([])
    expect(uses([credit("a", "50.00")], "10.00", { currency: "USD" })).toEqual([])
    expect(uses([credit("a", "50.00", "60.00"), credit("b", "5.00")], "10.00")).toEqual([["b", "5.00", "5.00"]])
    expect(fmt(remainingOf(credit("a", "50.00", "60.00")))).toBe("0.00")
    expect(uses([credit("a", "50.00")], "0.00")).toEqual([])
  })

  it("never exceeds the charge nor any credit's remaining allowance", () => {
    const cents = fc.integer({ min: 0, max: 100_000 })
    const money = cents.map((n) => BigDecimal.make(BigInt(n), 2))
    fc.assert(
      fc.property(fc.array(fc.tuple(money, money), { maxLength: 5 }), money, (entries, amount) => {
        const credits = entries.map(([allowance, consumed], i) => ({ ...credit(String(i), "0"), allowance, consumed }))
        const result = consumeCredits(credits, { amount, currency: "EUR", revenueCategory: "spa" })
        const total = coveredBy(result)
        const available = Money.sum(credits.map(remainingOf))
        expect(BigDecimal.equals(total, BigDecimal.min(amount, available))).toBe(true)
        for (const use of result) {
          const c = credits.find((x) => x.id === use.entitlementId)
          if (c === undefined) throw new Error("unknown credit")
          expect(BigDecimal.isPositive(use.amount)).toBe(true)
          expect(BigDecimal.isLessThanOrEqualTo(use.amount, remainingOf(c))).toBe(true)
          expect(BigDecimal.isLessThanOrEqualTo(use.consumedAfter, BigDecimal.max(c.allowance, c.consumed))).toBe(true)
        }
      })
    )
  })

  it("credit lines count as payments, and are void with the charges of a voided folio", () => {
    const lines = [
      { kind: "charge", amount: d("30.00"), currency: "EUR", exchangeRate: d("1") },
      { kind: "credit", amount: d("30.00"), currency: "EUR", exchangeRate: d("1") }
    ]
    const open = folioBalances(lines.map((l) => ({ ...l, voided: voidedByFolio(l.kind, false) })), "EUR")
    expect(open.entries.map((e) => [fmt(e.charges), fmt(e.payments), fmt(e.balance)])).toEqual([["30.00", "30.00", "0.00"]])
    const voided = folioBalances(lines.map((l) => ({ ...l, voided: voidedByFolio(l.kind, true) })), "EUR")
    expect(voided.entries.map((e) => [fmt(e.charges), fmt(e.payments), fmt(e.balance)])).toEqual([["0.00", "0.00", "0.00"]])
    expect(voidedByFolio("payment", true)).toBe(false)
    expect(voidedByFolio("cancellation_fee", true)).toBe(false)
  })
})

describe("charges", () => {
  it("a line is unit price x quantity rounded half away from zero in the currency's minor units", () => {
    expect(fmt(chargeLineAmount(d("15.25"), 3, "EUR"))).toBe("45.75")
    expect(Money.format(chargeLineAmount(d("1.005"), 99, "KWD"), "KWD")).toBe("99.495")
    expect(Money.format(chargeLineAmount(d("1500"), 2, "JPY"), "JPY")).toBe("3000")
  })

  it("is accepted on a live hold, a confirmed and a checked-in reservation only", () => {
    const now = new Date("2031-01-01T12:00:00Z")
    const live = new Date(now.getTime() + 60_000)
    const lapsed = new Date(now.getTime() - 60_000)
    expect(Result.isSuccess(chargeStep({ status: "tentative", holdExpiresAt: live }, now))).toBe(true)
    expect(Result.isSuccess(chargeStep({ status: "confirmed", holdExpiresAt: null }, now))).toBe(true)
    expect(Result.isSuccess(chargeStep({ status: "checked_in", holdExpiresAt: null }, now))).toBe(true)
    for (const facts of [
      { status: "tentative", holdExpiresAt: lapsed },
      { status: "cancelled", holdExpiresAt: null },
      { status: "checked_out", holdExpiresAt: null },
      { status: "no_show", holdExpiresAt: null }
    ]) {
      const step = chargeStep(facts, now)
      expect(Result.isFailure(step) && step.failure._tag, facts.status).toBe("InvalidStatusTransition")
    }
  })
})
