// The checks of one field of an ARI item on its own (type, format, range), each naming the field by its path as
// sent. Hand-written rather than a schema: the body is checked item by item, each item's fields before the rules
// between them, and the property's today bounds the dates, so the whole check is one pure function of the body.
import * as BigDecimal from "effect/BigDecimal"
import * as Result from "effect/Result"
import { calendarDateMessage, isCalendarDate, isUuid } from "../common/Schemas.js"
import type { Weekday } from "../quotes/dates.js"
import { type Check, fail } from "../rates/checks.js"

const WEEKDAYS: ReadonlyArray<Weekday> = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
const DECIMAL = /^\d+(\.\d+)?$/
const PRICE_LIMIT = BigDecimal.fromBigInt(1_000_000_000n)

export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

export const uuidField = (param: string, value: unknown): Check<string> =>
  typeof value === "string" && isUuid(value.toLowerCase())
    ? Result.succeed(value.toLowerCase())
    : fail(param, "must be a UUID")

export const dateField = (param: string, value: unknown): Check<string> =>
  typeof value === "string" && isCalendarDate(value) ? Result.succeed(value) : fail(param, calendarDateMessage)

/** `days`: a non-empty array of weekdays, each at most once; a bad entry names `days[i]`. */
export const daysField = (param: string, value: unknown): Check<ReadonlyArray<Weekday>> => {
  if (!Array.isArray(value)) return fail(param, "must be an array of weekdays such as [\"fri\", \"sat\"]")
  if (value.length === 0) return fail(param, "must list at least one weekday")
  const seen = new Set<Weekday>()
  for (const [i, day] of value.entries()) {
    const weekday = WEEKDAYS.find((w) => w === day)
    if (weekday === undefined) return fail(`${param}[${i}]`, `must be one of ${WEEKDAYS.map((w) => `"${w}"`).join(", ")}`)
    if (seen.has(weekday)) return fail(`${param}[${i}]`, `repeats "${weekday}"`)
    seen.add(weekday)
  }
  return Result.succeed([...seen])
}

/** A price as sent: a decimal string from 0 to 1,000,000,000 (its decimals are the plan currency's to judge). */
export const priceField = (param: string, value: unknown): Check<string> => {
  if (typeof value !== "string" || !DECIMAL.test(value)) {
    return fail(param, "must be a decimal string from \"0.00\" to \"1000000000\", such as \"120.00\"")
  }
  return BigDecimal.isGreaterThan(BigDecimal.fromStringUnsafe(value), PRICE_LIMIT)
    ? fail(param, "must be at most 1000000000")
    : Result.succeed(value)
}

export const intField = (param: string, value: unknown, min: number, max: number): Check<number> =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max
    ? Result.succeed(value)
    : fail(param, `must be a whole number from ${min} to ${max}`)

export const boolField = (param: string, value: unknown): Check<boolean> =>
  typeof value === "boolean" ? Result.succeed(value) : fail(param, "must be true or false")

/** A field that may be sent as `null` (removes the override) or left out (untouched). */
export const optionalField = <A>(
  item: Readonly<Record<string, unknown>>,
  key: string,
  check: (value: unknown) => Check<A>
): Check<A | null | undefined> => {
  if (!(key in item) || item[key] === undefined) return Result.succeed(undefined)
  if (item[key] === null) return Result.succeed(null)
  return check(item[key])
}
