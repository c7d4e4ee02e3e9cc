// Field formats of the rate-management request bodies. Each carries a message written
// for integrators; the gateway reports a decode failure as 400 `invalid_parameters` with `param` = the field's
// path and the message. Rules that need another field or the database (money in the plan's currency, date
// order, references) are checked after decoding, in ./checks.ts and the services.
import * as Schema from "effect/Schema"
import * as Currency from "../money/Currency.js"
import { calendarDateMessage, charCount, isCalendarDate, isUuid, lowerCaseId, storableText } from "../common/Schemas.js"

const DECIMAL = /^-?\d+(\.\d+)?$/

export const Str = storableText(Schema.String.annotate({ message: "must be a string" }))

export const text = (min: number, max: number) =>
  Str.pipe(
    Schema.check(Schema.makeFilter((s) => charCount(s) >= min && charCount(s) <= max, {
      message: (min > 0 ? `must be ${min} to ${max} characters` : `must be at most ${max} characters`),
      toJsonSchema: () => ({ minLength: min, maxLength: max })
    }))
  )

export const IdField = lowerCaseId(
  Str.pipe(Schema.check(Schema.makeFilter(isUuid, { message: "must be a UUID", toJsonSchema: () => ({ format: "uuid" }) })))
)

export const DateField = Str.pipe(
  Schema.check(Schema.makeFilter(isCalendarDate, { message: calendarDateMessage, toJsonSchema: () => ({ format: "date" }) }))
)

const DECIMAL_MESSAGE = "must be a decimal string such as \"120.00\""

/** A decimal string; precision and range are checked once the currency is known (`Money.parse`). */
export const DecimalField = Schema.String.annotate({ message: DECIMAL_MESSAGE }).pipe(
  Schema.check(Schema.makeFilter((s) => DECIMAL.test(s), { message: DECIMAL_MESSAGE, toJsonSchema: () => ({ pattern: DECIMAL.source }) }))
)

export const CurrencyField = Str.pipe(
  Schema.check(Schema.makeFilter(Currency.isCurrency, {
    message: "must be an ISO 4217 currency code such as \"EUR\"",
    toJsonSchema: () => ({ pattern: "^[A-Z]{3}$" })
  }))
)

/** An absolute http(s) URL of at most 2000 characters. */
export const isHttpUrl = (s: string): boolean => {
  if (s.length > 2000) return false
  try {
    const url = new URL(s)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

export const UrlField = Str.pipe(
  Schema.check(Schema.makeFilter(isHttpUrl, {
    message: "must be an absolute http(s) URL of at most 2000 characters",
    toJsonSchema: () => ({ format: "uri", maxLength: 2000 })
  }))
)

export const int = (min: number, max: number) =>
  Schema.Number.annotate({ message: "must be a whole number" }).pipe(
    // Finite, so that the description says a JSON number (not the strings a JSON codec reads as infinities).
    Schema.check(Schema.isFinite({ message: "must be a whole number" })),
    Schema.check(Schema.makeFilter((n) => Number.isInteger(n), { message: "must be a whole number", toJsonSchema: () => ({ type: "integer" }) })),
    Schema.check(Schema.makeFilter((n) => n >= min && n <= max, {
      message: `must be a whole number from ${min} to ${max}`,
      toJsonSchema: () => ({ minimum: min, maximum: max })
    }))
  )

export const BoolField = Schema.Boolean.annotate({ message: "must be true or false" })

export const literal = <const L extends readonly [string, ...Array<string>]>(...values: L) =>
  Schema.Literals(values).annotate({
    message: `must be one of ${values.map((v) => `"${v}"`).join(", ")}`
  })

export const list = <A, I>(item: Schema.Codec<A, I>, max: number) =>
  Schema.Array(item).annotate({ message: "must be an array" }).pipe(
    Schema.check(Schema.makeFilter((items) => items.length <= max, { message: `must have at most ${max} entries` }))
  )

/** An optional key: absent or a valid value. */
export const optional = <A, I, R>(schema: Schema.Codec<A, I, R>) => Schema.optionalKey(schema)

/** An optional key that also accepts `null` (on PATCH: clears the field). */
export const nullable = <A, I, R>(schema: Schema.Codec<A, I, R>) =>
  Schema.optionalKey(Schema.NullOr(schema))

/**
 * A key a PATCH must not send: any value is refused (400 `invalid_parameters` naming the key; a value of the
 * right form with `message`). Typed as the wire form of the value the create body takes (`value`), so a client derived from the
 * contract or its description types it as that value, described as refused.
 */
export const immutable = <T>(value: Schema.Codec<T, string>, message: string) =>
  Schema.optionalKey(Schema.toEncoded(value).check(Schema.makeFilter(() => false, {
    message,
    // Said on the field itself, where the description's glossary would otherwise put the field's usual meaning.
    description: `Not accepted: ${message}`,
    toJsonSchema: () => ({})
  })))

// Vocabularies
export const DiscountType = literal("fixed", "percent")
export const RatePlanKind = literal("standard", "promotion")
export const DerivationType = literal("percent", "fixed", "perPerson")
export const Frequency = literal("perStay", "perNight", "perGuest", "perGuestPerNight")
export const InclusionKind = literal("perk", "credit")
export const RevenueCategory = literal("room", "fnb", "spa", "excursions", "activities", "other")

export const CancellationTierField = Schema.Struct({
  days_before_arrival: int(0, 3650),
  refund_percent: int(0, 100)
})
export type CancellationTierField = typeof CancellationTierField.Type
