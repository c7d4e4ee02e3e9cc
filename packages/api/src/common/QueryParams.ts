import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"

// Query-string fields arrive as text; these decode them with the contract's messages (the gateway turns a
// failure into 400 `invalid_parameters` with `param` = the query parameter's name). What a field means (an
// integer, a boolean) is what the API description says of it (`toJsonSchema`), not the text it is sent as.

const DIGITS = /^\d{1,9}$/

/** Text that `accepts` lets through, decoded with `decode`, and described as `described` says. */
const queryText = <A>(
  accepts: (s: string) => boolean,
  message: string,
  described: Record<string, unknown>,
  transform: { readonly decode: (s: string) => A; readonly encode: (a: A) => string },
  type: Schema.Codec<A>
) =>
  Schema.String.pipe(
    Schema.check(Schema.makeFilter(accepts, { message, toJsonSchema: () => described })),
    Schema.decodeTo(type, SchemaTransformation.transform(transform))
  )

/** A whole number from `min` to `max`, sent as decimal digits. */
export const IntParam = (min: number, max: number) =>
  queryText(
    (s) => DIGITS.test(s) && Number(s) >= min && Number(s) <= max,
    `must be a whole number from ${min} to ${max}`,
    { type: "integer", minimum: min, maximum: max },
    { decode: (s) => Number(s), encode: (n) => String(n) },
    Schema.Number
  )

/** `true` or `false`. */
export const BooleanParam = queryText(
  (s) => s === "true" || s === "false",
  "must be true or false",
  { type: "boolean" },
  { decode: (s) => s === "true", encode: (b) => (b ? "true" : "false") },
  Schema.Boolean
)

/** `include=trace`: the one optional part of a quote (each night's `trace`); any other value is refused. */
export const IncludeParam = Schema.Literal("trace").annotate({
  message: "must be trace (the only optional part of a quote)"
})

/**
 * Comma-separated whole numbers from 0 to `most`, at most `max` of them (`4,9`); the empty string is an empty
 * list.
 */
export const IntListParam = (max: number, what: string, most: number) =>
  Schema.String.pipe(
    Schema.check(Schema.makeFilter((s: string) => {
      if (s.trim() === "") return true
      const parts = s.split(",").map((part) => part.trim())
      return parts.length <= max && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= most)
    }, { message: `must be comma-separated ${what} (whole numbers from 0 to ${most}), at most ${max} of them` })),
    Schema.decodeTo(
      Schema.Array(Schema.Number),
      SchemaTransformation.transform<ReadonlyArray<number>, string>({
        decode: (s) => (s.trim() === "" ? [] : s.split(",").map((part) => Number(part.trim()))),
        encode: (ns) => ns.join(",")
      })
    )
  )
