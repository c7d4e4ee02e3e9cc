// Small pure checks shared by the rate-management rules. Each answers `Either<value, InvalidParameters>`, the
// `param` being the field's path as sent; a rule list reports its first failure.
import * as BigDecimal from "effect/BigDecimal"
import * as Result from "effect/Result"
import { InvalidParameters } from "../errors/RequestErrors.js"
import * as Money from "../money/Money.js"
import { daysBetween, type IsoDate, nightsOf } from "../quotes/dates.js"

export type Check<A> = Result.Result<A, InvalidParameters>

export const invalid = (param: string, message: string): InvalidParameters =>
  new InvalidParameters({ message: `${param}: ${message}`, param })

export const fail = (param: string, message: string): Check<never> => Result.fail(invalid(param, message))

export const ok: Check<void> = Result.void

/** A money amount in the currency's minor units; not negative unless allowed. Stored text. */
export const money = (
  param: string,
  value: string,
  currency: string,
  options: { readonly allowNegative?: boolean } = {}
): Check<string> => {
  const parsed = Money.parse(value, currency)
  if (Result.isFailure(parsed)) return fail(param, Money.problemMessage(parsed.failure, currency))
  if (options.allowNegative !== true && BigDecimal.isNegative(parsed.success)) return fail(param, "must not be negative")
  return Result.succeed(Money.toDb(parsed.success))
}

export const moneyOrNull = (param: string, value: string | null, currency: string): Check<string | null> =>
  value === null ? Result.succeed(null) : money(param, value, currency)

const DECIMAL = /^-?\d+(\.\d{1,6})?$/

/** A percentage as a decimal string within [min, max], at most 6 decimals. Stored text. */
export const percent = (param: string, value: string, min: number, max: number): Check<string> => {
  if (!DECIMAL.test(value)) return fail(param, "must be a decimal string with at most 6 decimals, such as \"10.5\"")
  const amount = BigDecimal.fromStringUnsafe(value)
  if (
    BigDecimal.isLessThan(amount, BigDecimal.fromNumberUnsafe(min)) ||
    BigDecimal.isGreaterThan(amount, BigDecimal.fromNumberUnsafe(max))
  ) return fail(param, `must be a percentage from ${min} to ${max}`)
  return Result.succeed(Money.toDb(amount))
}

/** A window of dates that includes both ends (booking, stay, promo validity): end may equal start. */
export const window = (
  startParam: string,
  start: string | null | undefined,
  endParam: string,
  end: string | null | undefined
): Check<void> =>
  start != null && end != null && end < start ? fail(endParam, `must not be before ${startParam} (${start})`) : ok

/** A range of nights (intervals): end strictly after start. */
export const nights = (startParam: string, start: string, endParam: string, end: string): Check<void> =>
  end <= start ? fail(endParam, `must be after ${startParam} (${start})`) : ok

/**
 * The nights of `[start, end)` (a block, a period out of order, an inventory range): 400 on `end_date` when the
 * range is empty or longer than `most` nights (`tooLong` says so).
 */
export const nightRange = (start: IsoDate, end: IsoDate, most: number, tooLong: string): Check<ReadonlyArray<IsoDate>> => {
  const count = daysBetween(start, end)
  if (count < 1) return fail("end_date", "must be after start_date")
  if (count > most) return fail("end_date", tooLong)
  return Result.succeed(nightsOf(start, end))
}

/** A lower and an upper bound: upper not below lower. */
export const bounds = (
  minParam: string,
  min: number | null | undefined,
  maxParam: string,
  max: number | null | undefined
): Check<void> => (min != null && max != null && max < min ? fail(maxParam, `must be at least ${minParam} (${min})`) : ok)

/** Runs checks in order and stops at the first failure. */
export const all = (...checks: ReadonlyArray<() => Check<unknown>>): Check<void> => {
  for (const check of checks) {
    const result = check()
    if (Result.isFailure(result)) return Result.fail(result.failure)
  }
  return ok
}
