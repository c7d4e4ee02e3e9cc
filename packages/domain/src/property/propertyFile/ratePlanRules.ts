// The property file's rules on rate plans once the shape is right: references by code, one
// active default, money in the plan's currency, derivations that agree with their parent and close no cycle.
import { checkPolicy, type Issues, type Path } from "./issues.js"
import type { PropertyFileFields, PropertyFileRatePlan } from "./sections.js"

type Fields = typeof PropertyFileFields.Type
type Plan = typeof PropertyFileRatePlan.Type

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

export const checkRatePlans = (issues: Issues, file: Fields) => {
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
