// The property file of the admin command line: one JSON document describing a property, its
// currencies, taxes, age brackets, cancellation policy, room types with rooms, services with modifiers and
// rate plans. Strict: unknown keys are rejected and every field is validated like API input; cross-field rules
// (money in the right currency, references by code, one default plan, no derivation cycle) run once the
// shape is right. Failures name the field by its path as written: `rate_plans[0].base_price: ...`.
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
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
  Schema.check(Schema.makeFilter(crossCheck)),
  Schema.annotate({ identifier: "PropertyFile" })
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

// A missing or unknown key has no filter message of its own: the file's wording replaces the library's.
const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) =>
    issue._tag === "MissingKey" ?
      "is required" :
      issue._tag === "UnexpectedKey" ?
      "is not a known field" :
      SchemaIssue.defaultLeafHook(issue)
})

const invalid = (issues: ReadonlyArray<PropertyFileIssue>): PropertyFileInvalid =>
  new PropertyFileInvalid({
    message: `invalid property file: ${
      issues.map((i) => (i.path.length > 0 ? `${i.path}: ${i.message}` : i.message)).join("; ")
    }`,
    issues
  })

const decode = Schema.decodeUnknownResult(PropertyFile, { onExcessProperty: "error", errors: "all" })

/** Decodes a parsed JSON document into a property file, or every problem found with the path of its field. */
export const decodePropertyFileEither = (input: unknown): Result.Result<PropertyFile, PropertyFileInvalid> =>
  typeof input !== "object" || input === null || Array.isArray(input) ?
    Result.fail(invalid([new PropertyFileIssue({ path: "", message: "the document must be a JSON object" })])) :
    Result.mapError(decode(input), (error) =>
    invalid(
      formatIssues(error.issue).issues.map((issue) =>
        new PropertyFileIssue({ path: formatPropertyFilePath((issue.path ?? []).map((segment) => typeof segment === "object" ? segment.key : segment)), message: issue.message })
      )
    ))

export const decodePropertyFile = (input: unknown): Effect.Effect<PropertyFile, PropertyFileInvalid> =>
  Effect.fromResult(decodePropertyFileEither(input))

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
): Result.Result<void, PropertyFileInvalid> => {
  const issues = file.rate_plans.flatMap((plan, i) => {
    const sold = existing.get(plan.code)
    return sold === undefined || sold === plan.room_type ? [] : [new PropertyFileIssue({
      path: `rate_plans[${i}].room_type`,
      message: `cannot change: plan ${plan.code} sells room type ${sold} (a plan's room type is fixed; import the other offer under a new code)`
    })]
  })
  return issues.length === 0 ? Result.void : Result.fail(invalid(issues))
}
