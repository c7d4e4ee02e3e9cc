import * as Schema from "effect/Schema"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether a string can be an id at all (a malformed one names no resource). */
export const isUuid = (s: string): boolean => UUID.test(s)

export const Uuid = Schema.String.pipe(
  Schema.filter((s) => UUID.test(s), { message: () => "must be a UUID" })
)

const isCalendarDate = (s: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
  const date = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === s
}

/** A calendar date `YYYY-MM-DD`, kept as text: dates carry no time zone. */
export const IsoDate = Schema.String.pipe(
  Schema.filter(isCalendarDate, { message: () => "must be a date in YYYY-MM-DD format" })
)

export const DecimalString = Schema.String.pipe(
  Schema.filter((s) => /^-?\d+(\.\d+)?$/.test(s), { message: () => "must be a decimal string such as \"120.00\"" })
)

export const CurrencyCode = Schema.String.pipe(
  Schema.filter((s) => /^[A-Z]{3}$/.test(s), { message: () => "must be an ISO 4217 currency code" })
)

export const NonNegativeInt = Schema.Int.pipe(Schema.nonNegative({ message: () => "must be a whole number of 0 or more" }))

export const boundedString = (min: number, max: number) =>
  Schema.String.pipe(
    Schema.filter((s) => s.length >= min && s.length <= max, {
      message: () => `must be ${min} to ${max} characters`
    })
  )
