import { describe, expect, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as fc from "fast-check"
import { cancellationLines, settleCancellation } from "../../src/booking/settlement.js"
import { settleChange } from "../../src/changes/settlement.js"
import { folioBalances, voidedByFolio } from "../../src/folios/balances.js"
import { type PaidLine, paidTowardsStay } from "../../src/folios/paidTowardsStay.js"
import { Money } from "../../src/money/index.js"

const d = BigDecimal.fromStringUnsafe
const line = (kind: string, amount: string, currency = "EUR"): PaidLine => ({ kind, amount: d(amount), currency })
const fmt = (amount: BigDecimal.BigDecimal, currency = "EUR") => Money.format(amount, currency)

describe("what was paid towards the stay", () => {
  it("payments, less refunds and change fees, in the reservation's currency only; credits and charges are not paid", () => {
    const lines = [
      line("room", "393.60"),
      line("payment", "393.60"),
      line("credit", "10.00"),
      line("charge", "10.00"),
      line("payment", "50.00", "USD"),
      line("reversal", "-262.40"),
      line("change_fee", "131.20"),
      line("refund", "131.20"),
      line("payment", "20.00")
    ]
    expect(fmt(paidTowardsStay(lines, "EUR"))).toBe("151.20")
    expect(fmt(paidTowardsStay(lines, "USD"), "USD")).toBe("50.00")
    expect(fmt(paidTowardsStay(lines, "JPY"), "JPY")).toBe("0")
  })

  it("never below zero", () => {
    expect(fmt(paidTowardsStay([line("refund", "10.00")], "EUR"))).toBe("0.00")
    expect(fmt(paidTowardsStay([], "EUR"))).toBe("0.00")
  })
})

// Random sequences on one folio, with the rules the services run: a confirm's payment, changes to random totals
// (each settled by `settleChange` and written as its fee and refund lines), further payments, then a cancel. The
// tier is drawn once (one tier from arrival on, so every step is in it).
const CURRENCIES = ["EUR", "USD", "JPY", "KWD"] as const
const NOW = new Date("2031-01-10T10:00:00Z")

const amountIn = (currency: string) =>
  fc.integer({ min: 1, max: 5_000_000 }).map((minor) => Money.fromMinor(BigInt(minor), currency))

const scenario = fc.constantFrom(...CURRENCIES).chain((currency) =>
  fc.record({
    currency: fc.constant(currency),
    percent: fc.integer({ min: 0, max: 100 }),
    total: amountIn(currency),
    steps: fc.array(
      fc.record({ total: amountIn(currency), pay: fc.constantFrom("nothing", "due", "part") }),
      { minLength: 1, maxLength: 6 }
    )
  })
)

const minorOf = (amount: BigDecimal.BigDecimal, currency: string) => Money.toMinorFloor(amount, currency)

describe("a refund is paid once (property)", () => {
  it("after each change the balance is its amount due; after the cancel refunds and fees are the payments", () => {
    fc.assert(
      fc.property(scenario, ({ currency, percent, steps, total }) => {
        const tiers = [{ daysBeforeArrival: 0, refundPercent: percent }]
        const at = { tiers, checkIn: "2031-03-10", timeZone: "Europe/Lisbon", now: NOW, currency }
        const lines: Array<PaidLine> = [{ kind: "room", amount: total, currency }, { kind: "payment", amount: total, currency }]
        const balance = () => folioBalances(lines.map((l) => ({ ...l, exchangeRate: null })), currency).entries[0].balance
        let stayTotal = total
        let refundingSteps = 0
        for (const step of steps) {
          const paid = paidTowardsStay(lines, currency)
          const settled = settleChange({ ...at, step: "confirmed", total: step.total, paid })
          lines.push({ kind: "reversal", amount: BigDecimal.negate(stayTotal), currency }, { kind: "room", amount: step.total, currency })
          if (BigDecimal.isPositive(settled.changeFee)) lines.push({ kind: "change_fee", amount: settled.changeFee, currency })
          if (BigDecimal.isPositive(settled.refund)) lines.push({ kind: "refund", amount: settled.refund, currency })
          if (BigDecimal.isPositive(BigDecimal.sum(settled.changeFee, settled.refund))) refundingSteps++
          stayTotal = step.total
          expect(fmt(balance(), currency)).toBe(fmt(settled.amountDue, currency))
          expect(settled.refundDueMinor).toBe(minorOf(settled.refund, currency))
          const due = settled.amountDue
          const payment = step.pay === "due" ? due : step.pay === "part" ? Money.divide(due, 2, currency) : Money.zero
          if (BigDecimal.isPositive(payment)) lines.push({ kind: "payment", amount: payment, currency })
        }
        const paid = paidTowardsStay(lines, currency)
        const cancel = settleCancellation({ ...at, paid })
        lines.push(...cancellationLines(paid, cancel).map((l) => ({ ...l, currency })))

        const sumOf = (...kinds: Array<string>) =>
          Money.sum(lines.filter((l) => kinds.includes(l.kind)).map((l) => l.amount))
        expect(fmt(sumOf("refund", "change_fee", "cancellation_fee"), currency)).toBe(fmt(sumOf("payment"), currency))
        const voided = folioBalances(
          lines.map((l) => ({ ...l, exchangeRate: null, voided: voidedByFolio(l.kind, true) })),
          currency
        )
        expect(fmt(voided.entries[0].balance, currency)).toBe(fmt(Money.zero, currency))
        // In all, what a cancel at once (of everything paid) would refund: each step rounds down to minor units,
        // so at most one minor unit less per step that refunded; exactly that at 0% and 100%.
        const atOnce = minorOf(BigDecimal.divideUnsafe(BigDecimal.multiply(sumOf("payment"), BigDecimal.fromNumberUnsafe(percent)), BigDecimal.fromNumberUnsafe(100)), currency)
        const refunded = minorOf(sumOf("refund"), currency)
        expect(refunded <= atOnce && refunded >= atOnce - BigInt(refundingSteps)).toBe(true)
        if (percent === 0 || percent === 100) expect(refunded).toBe(atOnce)
      }),
      { numRuns: 300 }
    )
  })
})
