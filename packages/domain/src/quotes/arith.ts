// Small exact-decimal helpers the engine shares. Nothing here rounds: rounding happens once per priced
// line, in the currency of that line.
import * as BigDecimal from "effect/BigDecimal"
import type { Amount } from "../money/Money.js"

export const ZERO: Amount = BigDecimal.fromBigInt(0n)

export const int = (n: number): Amount => BigDecimal.fromBigInt(BigInt(Math.trunc(n)))

export const times = (amount: Amount, n: number): Amount => BigDecimal.multiply(amount, int(n))

/** `percent`% of `amount`, exact: dividing by 100 is a shift of the scale. */
export const percentOf = (amount: Amount, percent: Amount): Amount =>
  BigDecimal.multiply(amount, BigDecimal.make(percent.value, percent.scale + 2))

/** A price never goes below zero. */
export const nonNegative = (amount: Amount): Amount => BigDecimal.isNegative(amount) ? ZERO : amount

export const isPositive = (amount: Amount | null | undefined): amount is Amount =>
  amount != null && BigDecimal.isPositive(amount)
