import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether a string can be an id at all (a malformed one names no resource). */
export const isUuid = (s: string): boolean => UUID.test(s)

/** An id in any case (UUIDs are case-insensitive), decoded to the lower case ids are stored and compared in. */
export const lowerCaseId = <E, RD, RE>(self: Schema.Codec<string, E, RD, RE>) =>
  self.pipe(Schema.decodeTo(
    Schema.String,
    SchemaTransformation.transform({ decode: (s: string) => s.toLowerCase(), encode: (s: string) => s })
  ))

export const Uuid = lowerCaseId(Schema.String.pipe(
  Schema.check(Schema.makeFilter((s) => UUID.test(s), { message: "must be a UUID", toJsonSchema: () => ({ format: "uuid" }) }))
))

/** The first and last dates the API accepts anywhere: far enough for any stay, and a year 0000 never reaches Postgres. */
export const minDate = "2000-01-01"
export const maxDate = "2999-12-31"

/** A real calendar date `YYYY-MM-DD` from `minDate` to `maxDate` (text comparison is date order here). */
export const isCalendarDate = (s: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s) || s < minDate || s > maxDate) return false
  const date = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === s
}

export const calendarDateMessage = `must be a calendar date in YYYY-MM-DD format from ${minDate} to ${maxDate}`

/** Length in characters (Unicode code points), as a person counts them and Postgres' `char_length` does. */
export const charCount = (s: string): number => {
  let count = 0
  for (const _ of s) count++
  return count
}

/** Postgres refuses the NUL character in text, so no text field accepts it. */
export const hasNoNul = (s: string): boolean => !s.includes("\u0000")

export const noNulMessage = "must not contain the NUL character (\\u0000)"

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** JSON may escape half a surrogate pair (`"\ud800"`), which is no character: stored, it would become U+FFFD. */
export const isWellFormedText = (s: string): boolean => !LONE_SURROGATE.test(s)

/** `s` with control characters and half surrogate pairs replaced, to be quoted in a message or a `param`. */
export const printable = (s: string): string =>
  s.replace(/[\u0000-\u001f]/g, "?").replace(new RegExp(LONE_SURROGATE.source, "g"), "\ufffd")

export const wellFormedMessage = "must be valid Unicode text (it holds half a surrogate pair)"

/** Text Postgres stores as sent: no NUL, no half surrogate pair. */
export const isStorableText = (s: string): boolean => hasNoNul(s) && isWellFormedText(s)

/** `self` refined to storable text, each refusal with its own message. */
export const storableText = <E, RD, RE>(self: Schema.Codec<string, E, RD, RE>) =>
  self.pipe(
    Schema.check(Schema.makeFilter(hasNoNul, { message: noNulMessage })),
    Schema.check(Schema.makeFilter(isWellFormedText, { message: wellFormedMessage }))
  )

/** Any text from a client. Every text field of a body or query string builds on it. */
export const Text = storableText(Schema.String)

/** A calendar date `YYYY-MM-DD`, kept as text: dates carry no time zone. */
export const IsoDate = Schema.String.pipe(
  Schema.check(Schema.makeFilter(isCalendarDate, { message: calendarDateMessage, toJsonSchema: () => ({ format: "date" }) }))
)

export const DecimalString = Schema.String.pipe(
  Schema.check(Schema.makeFilter((s) => /^-?\d+(\.\d+)?$/.test(s), {
    message: "must be a decimal string such as \"120.00\"",
    toJsonSchema: () => ({ pattern: "^-?\\d+(\\.\\d+)?$" })
  }))
)

export const CurrencyCode = Schema.String.pipe(
  Schema.check(Schema.makeFilter((s) => /^[A-Z]{3}$/.test(s), {
    message: "must be an ISO 4217 currency code",
    toJsonSchema: () => ({ pattern: "^[A-Z]{3}$" })
  }))
)

export const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { message: "must be a whole number of 0 or more" }))

export const boundedString = (min: number, max: number) =>
  Text.pipe(
    Schema.check(Schema.makeFilter((s) => charCount(s) >= min && charCount(s) <= max, {
      message: `must be ${min} to ${max} characters`
    }))
  )
