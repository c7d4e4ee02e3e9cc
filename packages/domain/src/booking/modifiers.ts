// `modifier_values` of an add-on, checked against the service's declared modifiers: an unknown
// key, a missing required key, a value of the wrong type or a select value that is not an option is 400
// `invalid_parameters` naming the exact path (`add_ons[0].modifier_values.diet`). `null` counts as not given.
import * as Result from "effect/Result"
import type { InvalidParameters } from "../errors/RequestErrors.js"
import { type Check, fail } from "../rates/checks.js"
import { calendarDateMessage, charCount, isCalendarDate, isStorableText, printable } from "../common/Schemas.js"

export type ModifierType = "text" | "number" | "boolean" | "date" | "select"

export interface ModifierSpec {
  readonly key: string
  readonly label?: string
  /** One of `ModifierType`; anything else (a newer type) accepts any value. */
  readonly type: string
  readonly options?: ReadonlyArray<string> | null
  readonly required: boolean
}

/** The longest text a `text` modifier keeps. */
export const maxModifierText = 500

const checkValue = (spec: ModifierSpec, param: string, value: unknown): Check<void> => {
  switch (spec.type) {
    case "text":
      return typeof value === "string" && charCount(value) <= maxModifierText && isStorableText(value)
        ? Result.void
        : fail(param, `must be text of at most ${maxModifierText} characters, without NUL or half a surrogate pair`)
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? Result.void : fail(param, "must be a number")
    case "boolean":
      return typeof value === "boolean" ? Result.void : fail(param, "must be true or false")
    case "date":
      return typeof value === "string" && isCalendarDate(value)
        ? Result.void
        : fail(param, calendarDateMessage)
    case "select": {
      const options = spec.options ?? []
      return typeof value === "string" && options.includes(value)
        ? Result.void
        : fail(param, `must be one of ${options.map((o) => `"${o}"`).join(", ")}`)
    }
    default:
      return Result.void
  }
}

/**
 * The values to keep (declared keys with a value, in declaration order), or the first problem: unknown keys
 * first (in the order sent), then each declared modifier in order (missing when required, else its type).
 * `param` is the path of the `modifier_values` object as sent (`add_ons[0].modifier_values`).
 */
export const checkModifierValues = (
  modifiers: ReadonlyArray<ModifierSpec>,
  values: Readonly<Record<string, unknown>>,
  param: string
): Result.Result<Readonly<Record<string, unknown>>, InvalidParameters> => {
  const declared = new Map(modifiers.map((modifier) => [modifier.key, modifier]))
  for (const key of Object.keys(values)) {
    if (!declared.has(key)) {
      const known = modifiers.length === 0 ? "the service takes no modifiers" : `known: ${modifiers.map((m) => m.key).join(", ")}`
      return fail(`${param}.${printable(key)}`, `is not a modifier of this service (${known})`)
    }
  }
  const kept: Record<string, unknown> = {}
  for (const modifier of modifiers) {
    const path = `${param}.${modifier.key}`
    const value = Object.prototype.hasOwnProperty.call(values, modifier.key) ? values[modifier.key] : undefined
    if (value === undefined || value === null) {
      if (modifier.required) return fail(path, "is required by this service")
      continue
    }
    const checked = checkValue(modifier, path, value)
    if (Result.isFailure(checked)) return Result.fail(checked.failure)
    kept[modifier.key] = value
  }
  return Result.succeed(kept)
}
