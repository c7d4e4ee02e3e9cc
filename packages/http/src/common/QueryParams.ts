import * as Schema from "effect/Schema"

// Query-string fields arrive as text; these decode them with the contract's messages (the gateway turns a
// failure into 400 `invalid_parameters` with `param` = the query parameter's name).

const DIGITS = /^\d{1,9}$/

/** A whole number from `min` to `max`, sent as decimal digits. */
export const IntParam = (min: number, max: number) =>
  Schema.transform(
    Schema.String.pipe(
      Schema.filter((s) => DIGITS.test(s) && Number(s) >= min && Number(s) <= max, {
        message: () => `must be a whole number from ${min} to ${max}`
      })
    ),
    Schema.Number,
    { strict: true, decode: (s) => Number(s), encode: (n) => String(n) }
  ).annotations({ jsonSchema: { type: "integer", minimum: min, maximum: max } })

/** `true` or `false`. */
export const BooleanParam = Schema.transform(
  Schema.String.pipe(Schema.filter((s) => s === "true" || s === "false", { message: () => "must be true or false" })),
  Schema.Boolean,
  { strict: true, decode: (s) => s === "true", encode: (b) => (b ? "true" : "false") }
).annotations({ jsonSchema: { type: "boolean" } })

/** `include=trace`: the one optional part of a quote (each night's `trace`); any other value is refused. */
export const IncludeParam = Schema.Literal("trace").annotations({
  message: () => "must be trace (the only optional part of a quote)"
})

/**
 * Comma-separated whole numbers from 0 to `most`, at most `max` of them (`4,9`); the empty string is an empty
 * list.
 */
export const IntListParam = (max: number, what: string, most: number) =>
  Schema.transform(
    Schema.String.pipe(
      Schema.filter((s) => {
        if (s.trim() === "") return true
        const parts = s.split(",").map((part) => part.trim())
        return parts.length <= max && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= most)
      }, { message: () => `must be comma-separated ${what} (whole numbers from 0 to ${most}), at most ${max} of them` })
    ),
    Schema.Array(Schema.Number),
    {
      strict: true,
      decode: (s) => (s.trim() === "" ? [] : s.split(",").map((part) => Number(part.trim()))),
      encode: (ns) => ns.join(",")
    }
  )
