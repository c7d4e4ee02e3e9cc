import * as BigDecimal from "effect/BigDecimal"
import * as Result from "effect/Result"
import * as Option from "effect/Option"
import { digitsOf } from "./Currency.js"

export type Amount = BigDecimal.BigDecimal

const DECIMAL = /^-?\d+(\.\d+)?$/
const LIMIT = BigDecimal.fromBigInt(1_000_000_000n)

export const zero: Amount = BigDecimal.fromBigInt(0n)

export type MoneyProblem = "format" | "precision" | "range"

/**
 * Parses a decimal string in a currency: no floats, no more decimals than the currency's minor units,
 * within ±1,000,000,000.
 */
export const parse = (input: unknown, currency: string): Result.Result<Amount, MoneyProblem> => {
  if (typeof input !== "string" || !DECIMAL.test(input)) return Result.fail("format")
  const fraction = input.split(".")[1] ?? ""
  if (fraction.length > digitsOf(currency)) return Result.fail("precision")
  return parseDecimal(input)
}

/**
 * A decimal string within ±1,000,000,000, whatever its decimals: for an amount whose currency is not known yet
 * (`parse` checks the decimals once it is).
 */
export const parseDecimal = (input: unknown): Result.Result<Amount, Exclude<MoneyProblem, "precision">> => {
  if (typeof input !== "string" || !DECIMAL.test(input)) return Result.fail("format")
  return Option.match(BigDecimal.fromString(input), {
    onNone: () => Result.fail("format" as const),
    onSome: (amount) =>
      BigDecimal.isGreaterThan(BigDecimal.abs(amount), LIMIT) ? Result.fail("range" as const) : Result.succeed(amount)
  })
}

export const problemMessage = (problem: MoneyProblem, currency: string): string => {
  switch (problem) {
    case "format":
      return "must be a decimal string such as \"120.00\""
    case "precision":
      return `has more decimals than ${currency} allows (${digitsOf(currency)})`
    case "range":
      return "must be between -1000000000 and 1000000000"
  }
}

// 10^n for the shifts money needs (a currency's digits against an amount's scale), without a bigint
// exponentiation on every call.
const POWERS_OF_TEN: ReadonlyArray<bigint> = Array.from({ length: 40 }, (_, n) => 10n ** BigInt(n))
const pow10 = (n: number): bigint => POWERS_OF_TEN[n] ?? 10n ** BigInt(n)

/**
 * The amount as a whole number of `10^-digits` units, rounded half away from zero. An amount already at or
 * below that scale is only shifted: it needs no rounding.
 */
const toUnits = (amount: Amount, digits: number): bigint => {
  const shift = amount.scale - digits
  if (shift <= 0) return amount.value * pow10(-shift)
  const unit = pow10(shift)
  // bigint division truncates toward zero, so the remainder has the sign of the amount.
  const truncated = amount.value / unit
  const remainder = amount.value - truncated * unit
  const away = (remainder < 0n ? -remainder : remainder) * 2n >= unit
  return !away ? truncated : amount.value < 0n ? truncated - 1n : truncated + 1n
}

/** Rounds half away from zero to the currency's minor units (the result's scale is the currency's digits). */
export const round = (amount: Amount, currency: string): Amount => {
  const digits = digitsOf(currency)
  return amount.scale === digits ? amount : BigDecimal.make(toUnits(amount, digits), digits)
}

/**
 * `amount ÷ divisor` (a whole number above 0), rounded half away from zero to the currency's minor units:
 * exact integer division, where `round(BigDecimal.divideUnsafe(...))` would first expand the quotient to 100
 * digits.
 */
export const divide = (amount: Amount, divisor: number, currency: string): Amount => {
  const digits = digitsOf(currency)
  const scale = Math.max(amount.scale, digits)
  const numerator = amount.value * pow10(scale - amount.scale)
  const denominator = BigInt(divisor) * pow10(scale - digits)
  const truncated = numerator / denominator
  const remainder = numerator - truncated * denominator
  const away = (remainder < 0n ? -remainder : remainder) * 2n >= denominator
  return BigDecimal.make(!away ? truncated : numerator < 0n ? truncated - 1n : truncated + 1n, digits)
}

/** Formats with exactly the currency's minor-unit digits: "1310.40" EUR, "1310" JPY, "12.500" KWD. */
export const format = (amount: Amount, currency: string): string => {
  const digits = digitsOf(currency)
  const units = toUnits(amount, digits)
  const negative = units < 0n
  const raw = (negative ? -units : units).toString().padStart(digits + 1, "0")
  const body = digits === 0 ? raw : `${raw.slice(0, raw.length - digits)}.${raw.slice(raw.length - digits)}`
  // A bigint has no negative zero, so an amount that rounds to zero is never "-0.00".
  return negative ? `-${body}` : body
}

/** Minor units as an integer, rounded down (toward negative infinity), for refund obligations. */
export const toMinorFloor = (amount: Amount, currency: string): bigint =>
  BigDecimal.scale(BigDecimal.round(amount, { scale: digitsOf(currency), mode: "floor" }), digitsOf(currency)).value

export const fromMinor = (minor: bigint, currency: string): Amount =>
  BigDecimal.normalize(BigDecimal.make(minor, digitsOf(currency)))

export const sum = (amounts: Iterable<Amount>): Amount => BigDecimal.sumAll(amounts)

/** Parses a value already known to be a valid decimal string (from the database). */
export const fromDb = (value: string): Amount => BigDecimal.fromStringUnsafe(value)

/** Plain decimal text for storage in a NUMERIC column. */
export const toDb = (amount: Amount): string => BigDecimal.format(BigDecimal.normalize(amount))
