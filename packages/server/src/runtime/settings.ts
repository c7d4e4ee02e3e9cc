import * as Config from "effect/Config"
import * as Schema from "effect/Schema"

/**
 * A setting that is a whole number from `min` to `max`; a fraction or a number out of range is refused with
 * `rule`, which names the setting and what it takes (the words an operator reads when the server will not start).
 */
export const wholeNumber = (name: string, min: number, max: number, rule: string): Config.Config<number> =>
  Config.schema(Schema.Number.check(Schema.makeFilter((n: number) => (Number.isInteger(n) && n >= min && n <= max) || rule)), name)
