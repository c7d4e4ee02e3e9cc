// The checks of one field of an ARI item on its own (type, format, range), each naming the field by its path as
// sent. Hand-written rather than a schema: the body is checked item by item, each item's fields before the rules
// between them, and the property's today bounds the dates, so the whole check is one pure function of the body.
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { calendarDateMessage, isCalendarDate, isUuid } from "../common/Schemas.js"
import { InvalidParameters } from "../errors/RequestErrors.js"
import { Weekday } from "../inventory/requests.js"
import * as Money from "../money/Money.js"
import { type Check, fail } from "../rates/checks.js"

const isWeekday = Schema.is(Weekday)
const WEEKDAYS = Weekday.literals

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
    if (!isWeekday(day)) return fail(`${param}[${i}]`, `must be one of ${WEEKDAYS.map((w) => `"${w}"`).join(", ")}`)
    if (seen.has(day)) return fail(`${param}[${i}]`, `repeats "${day}"`)
    seen.add(day)
  }
  return Result.succeed([...seen])
}

const notAPrice = (param: string) => fail(param, "must be a decimal string from \"0.00\" to \"1000000000\", such as \"120.00\"")

/** A price as sent: a decimal string from 0 to 1,000,000,000 (its decimals are the plan currency's to judge). */
export const priceField = (param: string, value: unknown): Check<string> => {
  if (typeof value !== "string" || value.startsWith("-")) return notAPrice(param)
  const parsed = Money.parseDecimal(value)
  if (Result.isFailure(parsed)) return parsed.failure === "range" ? fail(param, "must be at most 1000000000") : notAPrice(param)
  return Result.succeed(value)
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

/** A failure of a rule written for one body (the PUT's), its `param` and message under the item's path. */
export const inItem = (index: number, error: InvalidParameters): InvalidParameters =>
  new InvalidParameters({ message: `items[${index}].${error.message}`, param: `items[${index}].${error.param ?? ""}` })
