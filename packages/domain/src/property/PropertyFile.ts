// The property file of the admin command line: one JSON document describing a property, its
// currencies, taxes, age brackets, cancellation policy, room types with rooms, services with modifiers and
// rate plans. Strict: unknown keys are rejected and every field is validated like API input; cross-field rules
// (money in the right currency, references by code, one default plan, no derivation cycle) run once the
// shape is right. Failures name the field by its path as written: `rate_plans[0].base_price: ...`.
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { crossCheck } from "./propertyFile/crossCheck.js"
import { PropertyFileFields } from "./propertyFile/sections.js"

export { propertyFilePlanCurrency } from "./propertyFile/ratePlanRules.js"
export {
  PropertyFileAgeBracket,
  PropertyFileCancellationTier,
  PropertyFileCurrency,
  PropertyFileDerivationType,
  PropertyFileDiscountType,
  PropertyFileModifier,
  PropertyFileModifierType,
  PropertyFilePricingUnit,
  PropertyFileRatePlan,
  PropertyFileRatePlanKind,
  PropertyFileRevenueCategory,
  PropertyFileRoomType,
  PropertyFileService,
  PropertyFileServiceTax,
  PropertyFileTax,
  PropertyFileTaxAppliesTo,
  PropertyFileTaxKind
} from "./propertyFile/sections.js"

/** The property file. Decode with `decodePropertyFile`, which rejects unknown keys. */
export const PropertyFile = PropertyFileFields.pipe(
  Schema.filter(crossCheck),
  Schema.annotations({ identifier: "PropertyFile" })
)
export type PropertyFile = typeof PropertyFile.Type

export class PropertyFileIssue extends Schema.Class<PropertyFileIssue>("PropertyFileIssue")({
  /** The field as written in the file: `rate_plans[0].base_price`; empty for the document itself. */
  path: Schema.String,
  message: Schema.String
}) {}

/** The property file failed validation; `message` lists every problem as `path: message`. */
export class PropertyFileInvalid extends Schema.TaggedError<PropertyFileInvalid>()("PropertyFileInvalid", {
  message: Schema.String,
  issues: Schema.Array(PropertyFileIssue)
}) {}

/** `["rate_plans", 0, "base_price"]` → `rate_plans[0].base_price`. */
export const formatPropertyFilePath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>((acc, key) =>
    typeof key === "number" ? `${acc}[${key}]` : acc.length === 0 ? String(key) : `${acc}.${String(key)}`, "")

const messageOf = (issue: ParseResult.ArrayFormatterIssue): string => {
  switch (issue._tag) {
    case "Missing":
      return "is required"
    case "Unexpected":
      return "is not a known field"
    default:
      return issue.message
  }
}

const invalid = (issues: ReadonlyArray<PropertyFileIssue>): PropertyFileInvalid =>
  new PropertyFileInvalid({
    message: `invalid property file: ${
      issues.map((i) => (i.path.length > 0 ? `${i.path}: ${i.message}` : i.message)).join("; ")
    }`,
    issues
  })

const decode = Schema.decodeUnknownEither(PropertyFile, { onExcessProperty: "error", errors: "all" })

/** Decodes a parsed JSON document into a property file, or every problem found with the path of its field. */
export const decodePropertyFileEither = (input: unknown): Either.Either<PropertyFile, PropertyFileInvalid> =>
  typeof input !== "object" || input === null || Array.isArray(input) ?
    Either.left(invalid([new PropertyFileIssue({ path: "", message: "the document must be a JSON object" })])) :
    Either.mapLeft(decode(input), (error) =>
    invalid(
      ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) =>
        new PropertyFileIssue({ path: formatPropertyFilePath(issue.path), message: messageOf(issue) })
      )
    ))

export const decodePropertyFile = (input: unknown): Effect.Effect<PropertyFile, PropertyFileInvalid> =>
  decodePropertyFileEither(input)

/** Parses JSON text, then decodes it (`decodePropertyFile`). */
export const parsePropertyFileJson = (json: string): Effect.Effect<PropertyFile, PropertyFileInvalid> =>
  Effect.suspend(() => {
    let parsed: unknown
    try {
      parsed = JSON.parse(json)
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      return Effect.fail(invalid([new PropertyFileIssue({ path: "", message: `the file is not valid JSON (${reason})` })]))
    }
    return decodePropertyFile(parsed)
  })

/**
 * A plan's room type is fixed once the plan exists, as `PATCH /rate-plans/{id}` keeps it: its holds, stays and
 * blocks were sold on that room type. A re-import that moves a plan to another one is refused, naming the plan's
 * field; the new offer is a new plan (a new code). `existing`: the room type code each existing plan sells.
 */
export const checkPlanRoomTypesKept = (
  file: PropertyFile,
  existing: ReadonlyMap<string, string>
): Either.Either<void, PropertyFileInvalid> => {
  const issues = file.rate_plans.flatMap((plan, i) => {
    const sold = existing.get(plan.code)
    return sold === undefined || sold === plan.room_type ? [] : [new PropertyFileIssue({
      path: `rate_plans[${i}].room_type`,
      message: `cannot change: plan ${plan.code} sells room type ${sold} (a plan's room type is fixed; import the other offer under a new code)`
    })]
  })
  return issues.length === 0 ? Either.void : Either.left(invalid(issues))
}
