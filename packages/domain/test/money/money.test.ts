// Money.round and Money.format work on the bigint directly; these pin their output to the decimal rules
// (half away from zero, exactly the currency's digits, no "-0.00") and to BigDecimal's own rounding.
import { describe, expect, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as fc from "fast-check"
import { digitsOf } from "../../src/money/Currency.js"
import * as Money from "../../src/money/Money.js"

const d = (text: string) => BigDecimal.fromStringUnsafe(text)

describe("Money.format", () => {
  it.each([
    // scale equal to the digits
    ["1310.40", "EUR", "1310.40"],
    ["-0.50", "EUR", "-0.50"],
    ["0.00", "EUR", "0.00"],
    // scale below the digits: padded, never rounded
    ["1310.4", "EUR", "1310.40"],
    ["1310", "EUR", "1310.00"],
    ["7", "KWD", "7.000"],
    ["12.5", "KWD", "12.500"],
    ["-3", "EUR", "-3.00"],
    ["0", "JPY", "0"],
    ["1310", "JPY", "1310"],
    ["0.05", "EUR", "0.05"],
    // scale above the digits: rounded half away from zero
    ["1310.405", "EUR", "1310.41"],
    ["1310.404999", "EUR", "1310.40"],
    ["-1310.405", "EUR", "-1310.41"],
    ["-1310.404999", "EUR", "-1310.40"],
    ["0.995", "EUR", "1.00"],
    ["-0.995", "EUR", "-1.00"],
    ["1309.5", "JPY", "1310"],
    ["1310.49", "JPY", "1310"],
    ["-0.5", "JPY", "-1"],
    ["12.4995", "KWD", "12.500"],
    ["12.4994", "KWD", "12.499"],
    ["-12.4995", "KWD", "-12.500"],
    // rounding to zero never shows a sign
    ["-0.004", "EUR", "0.00"],
    ["-0.0049999", "EUR", "0.00"],
    ["-0.4", "JPY", "0"],
    ["-0.0004", "KWD", "0.000"],
    ["0.004", "EUR", "0.00"]
  ])("%s %s is %s", (amount, currency, expected) => {
    expect(Money.format(d(amount), currency)).toBe(expected)
  })

  it("formats negative and large scales (normalized values) like their plain form", () => {
    expect(Money.format(BigDecimal.make(123n, -3), "EUR")).toBe("123000.00")
    expect(Money.format(BigDecimal.make(-5n, -1), "JPY")).toBe("-50")
    expect(Money.format(BigDecimal.make(123456789n, 30), "EUR")).toBe("0.00")
    expect(Money.format(BigDecimal.make(5n, 3), "EUR")).toBe("0.01")
    expect(Money.format(Money.fromMinor(1000n, "JPY"), "JPY")).toBe("1000")
  })
})

describe("Money.round", () => {
  const currency = fc.constantFrom("EUR", "JPY", "KWD", "USD")
  const amount = fc.record({ value: fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), scale: fc.integer({ min: -3, max: 12 }) })
    .map(({ scale, value }) => BigDecimal.make(value, scale))

  it("rounds half away from zero to exactly the currency's digits, as BigDecimal.round does", () => {
    fc.assert(fc.property(amount, currency, (x, code) => {
      const rounded = Money.round(x, code)
      const reference = BigDecimal.round(x, { scale: digitsOf(code), mode: "half-from-zero" })
      expect(rounded.scale).toBe(digitsOf(code))
      expect(rounded.value).toBe(BigDecimal.scale(reference, digitsOf(code)).value)
    }), { numRuns: 2000 })
  })

  it("formats what it rounds: format(x) is the text of round(x) (reference: BigDecimal.format)", () => {
    fc.assert(fc.property(amount, currency, (x, code) => {
      const digits = digitsOf(code)
      const reference = BigDecimal.round(x, { scale: digits, mode: "half-from-zero" })
      const text = BigDecimal.format(BigDecimal.normalize(reference))
      const [whole, fraction = ""] = text.split(".")
      const expected = digits === 0 ? whole : `${whole}.${fraction.padEnd(digits, "0")}`
      expect(Money.format(x, code)).toBe(expected)
      expect(Money.format(Money.round(x, code), code)).toBe(expected)
    }), { numRuns: 2000 })
  })

  it("divide is round(BigDecimal.divideUnsafe(x, n)), exactly", () => {
    fc.assert(fc.property(amount, currency, fc.integer({ min: 1, max: 60 }), (x, code, n) => {
      const divided = Money.divide(x, n, code)
      const reference = Money.round(BigDecimal.divideUnsafe(x, BigDecimal.fromBigInt(BigInt(n))), code)
      expect(divided.scale).toBe(digitsOf(code))
      expect(divided.value).toBe(reference.value)
    }), { numRuns: 2000 })
    expect(Money.format(Money.divide(d("100.01"), 2, "EUR"), "EUR")).toBe("50.01")
    expect(Money.format(Money.divide(d("-100.01"), 2, "EUR"), "EUR")).toBe("-50.01")
    expect(Money.format(Money.divide(d("100.00"), 3, "EUR"), "EUR")).toBe("33.33")
    expect(Money.format(Money.divide(d("5"), 2, "JPY"), "JPY")).toBe("3")
    expect(Money.format(Money.divide(d("-0.004"), 1, "EUR"), "EUR")).toBe("0.00")
  })

  it("keeps an amount already at the currency's scale", () => {
    expect(Money.round(d("-0.50"), "EUR")).toEqual(d("-0.50"))
    expect(Money.round(d("12.5"), "KWD").scale).toBe(3)
    expect(Money.round(d("2.675"), "EUR")).toEqual(d("2.68"))
    expect(Money.round(d("-2.675"), "EUR")).toEqual(d("-2.68"))
  })
})
