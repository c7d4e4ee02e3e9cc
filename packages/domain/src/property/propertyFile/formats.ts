// Field formats of the property file. Formats it shares with the API's write bodies come from rates/fields.ts
// (same rules, same messages); these are the ones only the file has.
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { DecimalField, isHttpUrl, Str, text } from "../../rates/fields.js"

/** A stable handle: 1 to 50 characters, no white space. */
export const Code = Str.pipe(
  Schema.check(Schema.makeFilter((s) => /^\S{1,50}$/.test(s), { message: "must be 1 to 50 characters without spaces" }))
)

export const Name = text(1, 100)
export const Description = text(0, 2000)

/** A key of `modifier_values`: a plain identifier. */
export const ModifierKey = Str.pipe(
  Schema.check(Schema.makeFilter((s) => /^[A-Za-z][A-Za-z0-9_]{0,49}$/.test(s), {
    message: "must be an identifier (a letter, then letters, digits or _; at most 50 characters)"
  }))
)

const isTimeZone = (zone: string): boolean => {
  if (zone.length === 0) return false
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone })
    return true
  } catch {
    return false
  }
}

export const TimeZone = Str.pipe(
  Schema.check(Schema.makeFilter(isTimeZone, { message: "must be an IANA time zone such as \"Europe/Lisbon\"" }))
)

const decimalIn = (min: number, max: number, what: string) =>
  DecimalField.pipe(
    Schema.check(Schema.makeFilter((s) => {
      const value = BigDecimal.fromStringUnsafe(s)
      return BigDecimal.isGreaterThanOrEqualTo(value, BigDecimal.fromNumberUnsafe(min)) &&
        BigDecimal.isLessThanOrEqualTo(value, BigDecimal.fromNumberUnsafe(max))
    }, { message: `must be ${what}` }))
  )

/** A percentage as a decimal string, 0 to 100. */
export const PercentText = decimalIn(0, 100, "a percentage from 0 to 100")

/** An exchange rate: base-currency units per one unit of the currency, above 0. */
export const RateText = DecimalField.pipe(
  Schema.check(Schema.makeFilter((s) => {
    const value = BigDecimal.fromStringUnsafe(s)
    return BigDecimal.isPositive(value) && BigDecimal.isLessThanOrEqualTo(value, BigDecimal.fromBigInt(1_000_000_000n))
  }, { message: "must be a rate above 0 (base-currency units per one unit of the currency)" }))
)

/** The API's `UrlField` rule; a separate schema only because the file's message has always been shorter. */
export const AbsoluteUrl = Str.pipe(Schema.check(Schema.makeFilter(isHttpUrl, { message: "must be an absolute http(s) URL" })))

/** Unlike the API's lists, the file's have no length cap. */
export const list = <A, I>(item: Schema.Codec<A, I>) =>
  Schema.Array(item).annotate({ message: "must be an array" })

export const defaultList = <A, I>(item: Schema.Codec<A, I>) =>
  list(item).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed([] as ReadonlyArray<A>)))
