import { describe, expect, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import { folioBalances, isSettled } from "../../src/folios/balances.js"
import { Money } from "../../src/money/index.js"

const d = BigDecimal.fromStringUnsafe
const line = (kind: string, amount: string, currency = "EUR", rate: string | null = null, voided = false) => ({
  kind,
  amount: d(amount),
  currency,
  exchangeRate: rate === null ? null : d(rate),
  voided
})
const fmt = (amount: BigDecimal.BigDecimal | null, currency = "EUR") =>
  amount === null ? null : Money.format(amount, currency)

describe("folio balances", () => {
  it("adds charges and payments per currency and never across currencies", () => {
    const result = folioBalances([
      line("room", "120.00"),
      line("tax", "7.20"),
      line("charge", "50.00", "USD", "0.92"),
      line("payment", "127.20")
    ], "EUR")
    expect(result.entries.map((e) => [e.currency, fmt(e.charges, e.currency), fmt(e.payments, e.currency), fmt(e.balance, e.currency)]))
      .toEqual([["EUR", "127.20", "127.20", "0.00"], ["USD", "50.00", "0.00", "50.00"]])
    expect(fmt(result.totalCharges)).toBe("173.20")
    expect(fmt(result.balance)).toBe("46.00")
    expect(isSettled(result)).toBe(false)
  })

  it("a credit in one currency never offsets a debt in another", () => {
    const result = folioBalances([line("room", "100.00"), line("payment", "200.00", "USD", "0.92")], "EUR")
    expect(isSettled(result)).toBe(false)
    expect(fmt(result.balance)).toBe("-84.00")
  })

  it("a line in a currency with no configured rate turns the flat fields null, the entries stay exact", () => {
    const result = folioBalances([line("room", "100.00"), line("charge", "1000", "JPY", null)], "EUR")
    expect(result.totalCharges).toBeNull()
    expect(result.balance).toBeNull()
    expect(result.entries.map((e) => fmt(e.balance, e.currency))).toEqual(["100.00", "1000"])
  })

  it("refunds lower payments and voided lines count for nothing", () => {
    const result = folioBalances([
      line("room", "100.00", "EUR", null, true),
      line("payment", "100.00"),
      line("refund", "50.00"),
      line("cancellation_fee", "50.00")
    ], "EUR")
    expect(result.entries.map((e) => [fmt(e.charges), fmt(e.payments), fmt(e.balance)])).toEqual([["50.00", "50.00", "0.00"]])
    expect(isSettled(result)).toBe(true)
  })

  it("converts lines at their own frozen rates, rounded to base minor units once per currency and rate", () => {
    const result = folioBalances([line("charge", "10.00", "USD", "0.923333"), line("charge", "10.00", "USD", "0.5")], "EUR")
    expect(fmt(result.totalCharges)).toBe("14.23")
  })

  it("a stay paid in full in its own currency is settled in the base-currency estimate too", () => {
    const result = folioBalances([
      line("room", "10.01", "USD", "0.9234"),
      line("room", "10.01", "USD", "0.9234"),
      line("room", "10.01", "USD", "0.9234"),
      line("payment", "30.03", "USD", "0.9234")
    ], "EUR")
    // Line by line this would be 3 × 9.24 = 27.72 against 27.73 paid.
    expect(fmt(result.totalCharges)).toBe("27.73")
    expect(fmt(result.balance)).toBe("0.00")
  })
})
