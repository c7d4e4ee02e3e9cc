// The property file of the admin command line (decisions 7.1): one JSON document describing a property, its
// currencies, taxes, age brackets, cancellation policy, room types with rooms, services with modifiers and
// rate plans. Strict: unknown keys are rejected and every field is validated like API input; cross-field rules
// (money in the right currency, references by code, one default plan, no derivation cycle) run once the
// shape is right. Failures name the field by its path as written: `rate_plans[0].base_price: ...`.
import * as BigDecimal from "effect/BigDecimal"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Currency from "../money/Currency.js"
import * as Money from "../money/Money.js"
import { IsoDate } from "../Schemas.js"

// ---------------------------------------------------------------------------------------------------------
// Field formats

const Str = Schema.String.annotations({ message: () => "must be a string" })

const text = (min: number, max: number) =>
  Str.pipe(
    Schema.filter((s) => s.length >= min && s.length <= max, {
      message: () => (min > 0 ? `must be ${min} to ${max} characters` : `must be at most ${max} characters`)
    })
  )

/** A stable handle: 1 to 50 characters, no white space. */
const Code = Str.pipe(
  Schema.filter((s) => /^\S{1,50}$/.test(s), { message: () => "must be 1 to 50 characters without spaces" })
)

const Name = text(1, 100)
const Description = text(0, 2000)

/** A key of `modifier_values`: a plain identifier. */
const ModifierKey = Str.pipe(
  Schema.filter((s) => /^[A-Za-z][A-Za-z0-9_]{0,49}$/.test(s), {
    message: () => "must be an identifier (a letter, then letters, digits or _; at most 50 characters)"
  })
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

const TimeZone = Str.pipe(
  Schema.filter(isTimeZone, { message: () => "must be an IANA time zone such as \"Europe/Lisbon\"" })
)

const CurrencyIso = Str.pipe(
  Schema.filter(Currency.isCurrency, { message: () => "must be an ISO 4217 currency code such as \"EUR\"" })
)

const DECIMAL = /^-?\d+(\.\d+)?$/
const DECIMAL_MESSAGE = "must be a decimal string such as \"120.00\""

/** A decimal string; its range and precision are checked once the currency is known. */
const DecimalText = Schema.String.annotations({ message: () => DECIMAL_MESSAGE }).pipe(
  Schema.filter((s) => DECIMAL.test(s), { message: () => DECIMAL_MESSAGE })
)

const decimalIn = (min: number, max: number, what: string) =>
  DecimalText.pipe(
    Schema.filter((s) => {
      const value = BigDecimal.unsafeFromString(s)
      return BigDecimal.greaterThanOrEqualTo(value, BigDecimal.unsafeFromNumber(min)) &&
        BigDecimal.lessThanOrEqualTo(value, BigDecimal.unsafeFromNumber(max))
    }, { message: () => `must be ${what}` })
  )

/** A percentage as a decimal string, 0 to 100. */
const PercentText = decimalIn(0, 100, "a percentage from 0 to 100")

/** An exchange rate: base-currency units per one unit of the currency, above 0. */
const RateText = DecimalText.pipe(
  Schema.filter((s) => {
    const value = BigDecimal.unsafeFromString(s)
    return BigDecimal.isPositive(value) && BigDecimal.lessThanOrEqualTo(value, BigDecimal.fromBigInt(1_000_000_000n))
  }, { message: () => "must be a rate above 0 (base-currency units per one unit of the currency)" })
)

const int = (min: number, max: number) =>
  Schema.Number.annotations({ message: () => "must be a whole number" }).pipe(
    Schema.filter((n) => Number.isInteger(n), { message: () => "must be a whole number" }),
    Schema.filter((n) => n >= min && n <= max, { message: () => `must be a whole number from ${min} to ${max}` })
  )

const Bool = Schema.Boolean.annotations({ message: () => "must be true or false" })

const literal = <const L extends readonly [string, ...Array<string>]>(...values: L) =>
  Schema.Literal(...values).annotations({
    message: () => ({ message: `must be one of ${values.map((v) => `"${v}"`).join(", ")}`, override: true })
  })

const AbsoluteUrl = Str.pipe(
  Schema.filter((s) => {
    if (s.length > 2000) return false
    try {
      const url = new URL(s)
      return url.protocol === "http:" || url.protocol === "https:"
    } catch {
      return false
    }
  }, { message: () => "must be an absolute http(s) URL" })
)

const list = <A, I>(item: Schema.Schema<A, I>) => Schema.Array(item).annotations({ message: () => "must be an array" })

/** An optional key: absent or a valid value (`undefined`/`null` are not values in JSON input). */
const optional = <A, I, R>(schema: Schema.Schema<A, I, R>) => Schema.optionalWith(schema, { exact: true })

const defaultList = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.optionalWith(list(item), { exact: true, default: () => [] as ReadonlyArray<A> })

// ---------------------------------------------------------------------------------------------------------
// Vocabularies

export const PropertyFileTaxKind = literal("percent", "perStay", "perNight", "perGuestPerNight")
export const PropertyFileTaxAppliesTo = literal("room", "addons")
export const PropertyFilePricingUnit = literal("perStay", "perNight", "perGuest", "perGuestPerNight")
export const PropertyFileRevenueCategory = literal("room", "fnb", "spa", "excursions", "activities", "other")
export const PropertyFileModifierType = literal("text", "number", "boolean", "date", "select")
export const PropertyFileRatePlanKind = literal("standard", "promotion")
export const PropertyFileDerivationType = literal("percent", "fixed", "perPerson")
export const PropertyFileDiscountType = literal("fixed", "percent")

// ---------------------------------------------------------------------------------------------------------
// Sections

export const PropertyFileCancellationTier = Schema.Struct({
  days_before_arrival: int(0, 3650),
  refund_percent: int(0, 100)
})

export const PropertyFileCurrency = Schema.Struct({
  currency: CurrencyIso,
  rate_to_base: RateText
})

export const PropertyFileAgeBracket = Schema.Struct({
  /** Children up to and including this age pay `extra_guest_percent` of the extra-guest charge. */
  max_age: int(0, 17),
  extra_guest_percent: PercentText
})

export const PropertyFileTax = Schema.Struct({
  code: Code,
  name: Name,
  kind: PropertyFileTaxKind,
  /** A percentage for `percent`, otherwise an amount in the base currency. */
  value: DecimalText,
  /** For `percent` only; defaults to `room`. */
  applies_to: optional(PropertyFileTaxAppliesTo),
  /** For `perNight` and `perGuestPerNight`: levied on at most this many nights. */
  max_nights: optional(int(1, 366)),
  /** For `perGuestPerNight`: children under this age are exempt. */
  exempt_under_age: optional(int(1, 18))
})

export const PropertyFileRoomType = Schema.Struct({
  code: Code,
  name: Name,
  description: optional(Description),
  base_occupancy: int(1, 20),
  max_occupancy: int(1, 20),
  bed_configs: defaultList(text(1, 50)),
  /** Room numbers, unique in the property. */
  rooms: list(text(1, 20))
})

export const PropertyFileModifier = Schema.Struct({
  key: ModifierKey,
  label: Name,
  type: PropertyFileModifierType,
  /** For `select` only (and required there). */
  options: optional(list(text(1, 100))),
  required: Schema.optionalWith(Bool, { exact: true, default: () => false })
})

export const PropertyFileServiceTax = Schema.Struct({
  kind: PropertyFileTaxKind,
  value: DecimalText,
  max_nights: optional(int(1, 366)),
  exempt_under_age: optional(int(1, 18))
})

export const PropertyFileService = Schema.Struct({
  code: Code,
  name: Name,
  description: optional(Description),
  /** In the base currency. */
  price: DecimalText,
  pricing_unit: PropertyFilePricingUnit,
  revenue_category: PropertyFileRevenueCategory,
  guest_bookable: Schema.optionalWith(Bool, { exact: true, default: () => true }),
  tax: optional(PropertyFileServiceTax),
  modifiers: defaultList(PropertyFileModifier)
})

/** Every field of interface 2.2, with the room type and the parent named by code, plus the import-only fields. */
export const PropertyFileRatePlan = Schema.Struct({
  code: Code,
  default: Schema.optionalWith(Bool, { exact: true, default: () => false }),
  room_type: Code,
  name: Name,
  base_price: DecimalText,
  /** The base currency or a configured one; a derived plan defaults to its parent's, any other to the base. */
  currency: optional(CurrencyIso),
  public_name: optional(Name),
  description: optional(Description),
  image_url: optional(AbsoluteUrl),
  extra_guest_charge: optional(DecimalText),
  single_guest_discount: optional(DecimalText),
  single_guest_discount_type: Schema.optionalWith(PropertyFileDiscountType, { exact: true, default: () => "fixed" as const }),
  min_los: optional(int(1, 366)),
  max_los: optional(int(1, 366)),
  booking_window_start: optional(IsoDate),
  booking_window_end: optional(IsoDate),
  stay_window_start: optional(IsoDate),
  stay_window_end: optional(IsoDate),
  active_for_booking_engine: Schema.optionalWith(Bool, { exact: true, default: () => false }),
  active_for_channels: Schema.optionalWith(Bool, { exact: true, default: () => false }),
  kind: Schema.optionalWith(PropertyFileRatePlanKind, { exact: true, default: () => "standard" as const }),
  derived_from: optional(Code),
  derivation_type: optional(PropertyFileDerivationType),
  derivation_value: optional(DecimalText),
  is_active: Schema.optionalWith(Bool, { exact: true, default: () => true }),
  requires_promo_code: Schema.optionalWith(Bool, { exact: true, default: () => false }),
  /** Overrides the property's policy for this plan. */
  cancellation_policy: optional(list(PropertyFileCancellationTier))
})

const PropertyFileFields = Schema.Struct({
  code: Code,
  name: Name,
  timezone: TimeZone,
  base_currency: CurrencyIso,
  currencies: defaultList(PropertyFileCurrency),
  loyalty_points_per_usd: Schema.optionalWith(int(0, 1_000_000), { exact: true, default: () => 10 }),
  age_brackets: defaultList(PropertyFileAgeBracket),
  taxes: defaultList(PropertyFileTax),
  cancellation_policy: defaultList(PropertyFileCancellationTier),
  room_types: list(PropertyFileRoomType),
  services: defaultList(PropertyFileService),
  rate_plans: list(PropertyFileRatePlan)
})

type Fields = typeof PropertyFileFields.Type
type Plan = typeof PropertyFileRatePlan.Type

// ---------------------------------------------------------------------------------------------------------
// Cross-field rules

type Path = ReadonlyArray<PropertyKey>

class Issues {
  readonly all: Array<Schema.FilterIssue> = []
  add(path: Path, message: string): void {
    this.all.push({ path, message })
  }
  /** Reports every entry whose `key` repeats an earlier one. */
  unique<A>(items: ReadonlyArray<A>, key: (a: A) => string | number, path: (i: number) => Path, what: string) {
    const seen = new Set<string | number>()
    items.forEach((item, i) => {
      const k = key(item)
      if (seen.has(k)) this.add(path(i), `duplicate ${what} ${JSON.stringify(k)}`)
      seen.add(k)
    })
  }
  money(path: Path, value: string, currency: string, options: { readonly allowNegative?: boolean } = {}) {
    const parsed = Money.parse(value, currency)
    if (Either.isLeft(parsed)) return this.add(path, Money.problemMessage(parsed.left, currency))
    if (options.allowNegative !== true && BigDecimal.isNegative(parsed.right)) {
      this.add(path, "must not be negative")
    }
  }
  percent(path: Path, value: string, min: number, max: number) {
    const amount = BigDecimal.unsafeFromString(value)
    if (
      BigDecimal.lessThan(amount, BigDecimal.unsafeFromNumber(min)) ||
      BigDecimal.greaterThan(amount, BigDecimal.unsafeFromNumber(max))
    ) this.add(path, `must be a percentage from ${min} to ${max}`)
  }
}

const checkPolicy = (issues: Issues, tiers: ReadonlyArray<typeof PropertyFileCancellationTier.Type>, path: Path) =>
  issues.unique(tiers, (t) => t.days_before_arrival, (i) => [...path, i, "days_before_arrival"], "days_before_arrival")

const checkTaxRule = (
  issues: Issues,
  tax: {
    readonly kind: typeof PropertyFileTaxKind.Type
    readonly value: string
    readonly max_nights?: number | undefined
    readonly exempt_under_age?: number | undefined
  },
  path: Path,
  baseCurrency: string
) => {
  if (tax.kind === "percent") issues.percent([...path, "value"], tax.value, 0, 100)
  else issues.money([...path, "value"], tax.value, baseCurrency)
  if (tax.max_nights !== undefined && tax.kind !== "perNight" && tax.kind !== "perGuestPerNight") {
    issues.add([...path, "max_nights"], "applies only to kind \"perNight\" or \"perGuestPerNight\"")
  }
  if (tax.exempt_under_age !== undefined && tax.kind !== "perGuestPerNight") {
    issues.add([...path, "exempt_under_age"], "applies only to kind \"perGuestPerNight\"")
  }
}

/** The currency a plan prices in: its own, else its parent's (recursively), else the base currency. */
export const propertyFilePlanCurrency = (file: Pick<Fields, "base_currency" | "rate_plans">, plan: Plan): string => {
  const byCode = new Map(file.rate_plans.map((p) => [p.code, p]))
  const seen = new Set<string>()
  let current: Plan | undefined = plan
  while (current !== undefined && !seen.has(current.code)) {
    if (current.currency !== undefined) return current.currency
    seen.add(current.code)
    current = current.derived_from === undefined ? undefined : byCode.get(current.derived_from)
  }
  return file.base_currency
}

const checkRatePlans = (issues: Issues, file: Fields) => {
  const plans = file.rate_plans
  const at = (i: number, ...rest: Array<PropertyKey>): Path => ["rate_plans", i, ...rest]
  const roomTypes = new Set(file.room_types.map((r) => r.code))
  const currencies = new Set([file.base_currency, ...file.currencies.map((c) => c.currency)])
  const byCode = new Map(plans.map((p) => [p.code, p]))

  issues.unique(plans, (p) => p.code, (i) => at(i, "code"), "rate plan code")

  const defaults = plans.flatMap((p, i) => (p.default ? [i] : []))
  if (defaults.length === 0) issues.add(["rate_plans"], "exactly one rate plan must have \"default\": true (none has)")
  for (const i of defaults.slice(1)) {
    issues.add(at(i, "default"), `only one rate plan may be the default ("${plans[defaults[0]].code}" already is)`)
  }

  plans.forEach((plan, i) => {
    if (!roomTypes.has(plan.room_type)) issues.add(at(i, "room_type"), `names no room type in this file ("${plan.room_type}")`)
    if (plan.currency !== undefined && !currencies.has(plan.currency)) {
      issues.add(at(i, "currency"), `must be the base currency (${file.base_currency}) or one listed in currencies`)
    }
    if (plan.default && !plan.is_active) issues.add(at(i, "is_active"), "the default rate plan must be active")

    const currency = propertyFilePlanCurrency(file, plan)
    // Money is checked in the plan's currency (skipped when that currency is itself invalid).
    if (currencies.has(currency)) {
      issues.money(at(i, "base_price"), plan.base_price, currency)
      if (plan.extra_guest_charge !== undefined) issues.money(at(i, "extra_guest_charge"), plan.extra_guest_charge, currency)
      if (plan.single_guest_discount !== undefined) {
        if (plan.single_guest_discount_type === "percent") {
          issues.percent(at(i, "single_guest_discount"), plan.single_guest_discount, 0, 100)
        } else issues.money(at(i, "single_guest_discount"), plan.single_guest_discount, currency)
      }
    }
    if (plan.min_los !== undefined && plan.max_los !== undefined && plan.max_los < plan.min_los) {
      issues.add(at(i, "max_los"), `must be at least min_los (${plan.min_los})`)
    }
    for (const window of ["booking_window", "stay_window"] as const) {
      const start = plan[`${window}_start`]
      const end = plan[`${window}_end`]
      if (start !== undefined && end !== undefined && end < start) {
        issues.add(at(i, `${window}_end`), `must not be before ${window}_start (${start})`)
      }
    }
    if (plan.cancellation_policy !== undefined) checkPolicy(issues, plan.cancellation_policy, at(i, "cancellation_policy"))

    // Derivation: the three fields go together.
    if (plan.derived_from === undefined) {
      if (plan.derivation_type !== undefined) issues.add(at(i, "derivation_type"), "is only allowed with derived_from")
      if (plan.derivation_value !== undefined) issues.add(at(i, "derivation_value"), "is only allowed with derived_from")
      return
    }
    if (plan.derivation_type === undefined) issues.add(at(i, "derivation_type"), "is required with derived_from")
    if (plan.derivation_value === undefined) issues.add(at(i, "derivation_value"), "is required with derived_from")
    if (plan.derivation_type !== undefined && plan.derivation_value !== undefined && currencies.has(currency)) {
      if (plan.derivation_type === "percent") issues.percent(at(i, "derivation_value"), plan.derivation_value, -100, 1000)
      else issues.money(at(i, "derivation_value"), plan.derivation_value, currency, { allowNegative: true })
    }
    const parent = byCode.get(plan.derived_from)
    if (parent === undefined) {
      issues.add(at(i, "derived_from"), `names no rate plan in this file ("${plan.derived_from}")`)
      return
    }
    if (parent.code === plan.code) {
      issues.add(at(i, "derived_from"), "a rate plan cannot derive from itself")
      return
    }
    if (parent.room_type !== plan.room_type) {
      issues.add(at(i, "room_type"), `must be the parent's room type ("${parent.room_type}")`)
    }
    const parentCurrency = propertyFilePlanCurrency(file, parent)
    if (plan.currency !== undefined && plan.currency !== parentCurrency) {
      issues.add(at(i, "currency"), `must be the parent's currency (${parentCurrency})`)
    }
  })

  // Cycles: a plan whose chain of parents leads back to itself; reported once, on the cycle's first plan.
  plans.forEach((plan, i) => {
    const chain: Array<string> = [plan.code]
    let parent = plan.derived_from === undefined || plan.derived_from === plan.code ? undefined : byCode.get(plan.derived_from)
    while (parent !== undefined && !chain.includes(parent.code)) {
      chain.push(parent.code)
      parent = parent.derived_from === undefined ? undefined : byCode.get(parent.derived_from)
    }
    if (parent === undefined || parent.code !== plan.code) return
    const first = plans.findIndex((p) => chain.includes(p.code))
    if (first === i) issues.add(at(i, "derived_from"), `derivation cycle: ${[...chain, plan.code].join(" -> ")}`)
  })
}

const crossCheck = (file: Fields): ReadonlyArray<Schema.FilterIssue> => {
  const issues = new Issues()
  const base = file.base_currency

  file.currencies.forEach((c, i) => {
    if (c.currency === base) issues.add(["currencies", i, "currency"], `is the base currency (${base})`)
  })
  issues.unique(file.currencies, (c) => c.currency, (i) => ["currencies", i, "currency"], "currency")
  issues.unique(file.age_brackets, (b) => b.max_age, (i) => ["age_brackets", i, "max_age"], "max_age")

  issues.unique(file.taxes, (t) => t.code, (i) => ["taxes", i, "code"], "tax code")
  file.taxes.forEach((tax, i) => {
    checkTaxRule(issues, tax, ["taxes", i], base)
    if (tax.applies_to !== undefined && tax.kind !== "percent") {
      issues.add(["taxes", i, "applies_to"], "applies only to kind \"percent\"")
    }
  })

  checkPolicy(issues, file.cancellation_policy, ["cancellation_policy"])

  issues.unique(file.room_types, (r) => r.code, (i) => ["room_types", i, "code"], "room type code")
  const rooms = new Map<string, string>()
  file.room_types.forEach((roomType, i) => {
    if (roomType.max_occupancy < roomType.base_occupancy) {
      issues.add(["room_types", i, "max_occupancy"], `must be at least base_occupancy (${roomType.base_occupancy})`)
    }
    roomType.rooms.forEach((number, j) => {
      const owner = rooms.get(number)
      if (owner !== undefined) issues.add(["room_types", i, "rooms", j], `duplicate room number "${number}" (also in ${owner})`)
      else rooms.set(number, roomType.code)
    })
  })

  issues.unique(file.services, (s) => s.code, (i) => ["services", i, "code"], "service code")
  file.services.forEach((service, i) => {
    issues.money(["services", i, "price"], service.price, base)
    if (service.tax !== undefined) checkTaxRule(issues, service.tax, ["services", i, "tax"], base)
    issues.unique(service.modifiers, (m) => m.key, (j) => ["services", i, "modifiers", j, "key"], "modifier key")
    service.modifiers.forEach((modifier, j) => {
      const path: Path = ["services", i, "modifiers", j, "options"]
      if (modifier.type === "select") {
        if (modifier.options === undefined || modifier.options.length === 0) {
          issues.add(path, "is required (at least one option) for type \"select\"")
        } else issues.unique(modifier.options, (o) => o, (k) => [...path, k], "option")
      } else if (modifier.options !== undefined) issues.add(path, "applies only to type \"select\"")
    })
  })

  checkRatePlans(issues, file)
  return issues.all
}

// ---------------------------------------------------------------------------------------------------------
// The file

/** The property file (decisions 7.1). Decode with `decodePropertyFile`, which rejects unknown keys. */
export const PropertyFile = PropertyFileFields.pipe(
  Schema.filter(crossCheck),
  Schema.annotations({ identifier: "PropertyFile" })
)
export type PropertyFile = typeof PropertyFile.Type
export type PropertyFileRatePlan = typeof PropertyFileRatePlan.Type
export type PropertyFileRoomType = typeof PropertyFileRoomType.Type
export type PropertyFileService = typeof PropertyFileService.Type
export type PropertyFileTax = typeof PropertyFileTax.Type
export type PropertyFileCancellationTier = typeof PropertyFileCancellationTier.Type

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
