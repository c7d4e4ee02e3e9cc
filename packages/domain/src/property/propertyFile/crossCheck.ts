// The property file's cross-field rules, run once the shape is right: every problem is
// reported, with the path of its field.
import type * as Schema from "effect/Schema"
import { checkPolicy, Issues, type Path } from "./issues.js"
import { checkRatePlans } from "./ratePlanRules.js"
import type { PropertyFileFields, PropertyFileTaxKind } from "./sections.js"

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

export const crossCheck = (file: typeof PropertyFileFields.Type): ReadonlyArray<Schema.FilterIssue> => {
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
