// The rules on a plan's fields, run on the whole result of every write so a
// plan is valid after each one; and the rules on its parent.
import * as Result from "effect/Result"
import { all, bounds, type Check, fail, money, ok, percent, window } from "../checks.js"
import type { RatePlanPatch } from "./bodies.js"
import type { CancellationTier, ParentPlan, RatePlanFields } from "./fields.js"

const currencyRule = (currency: string, currencies: ReadonlyArray<string>): Check<void> =>
  currencies.includes(currency)
    ? ok
    : fail("currency", `must be the property's base currency or a configured currency (${currencies.join(", ")})`)

/**
 * The checks a PATCH body allows on its own, before the stored plan is loaded (field validation comes before
 * looking resources up): the currency, and the bounds and windows it sends both ends of.
 */
export const checkPatchAlone = (patch: RatePlanPatch, currencies: ReadonlyArray<string>): Check<void> =>
  all(
    () => (patch.currency === undefined ? ok : currencyRule(patch.currency, currencies)),
    () => bounds("min_los", patch.min_los, "max_los", patch.max_los),
    () => window("booking_window_start", patch.booking_window_start, "booking_window_end", patch.booking_window_end),
    () => window("stay_window_start", patch.stay_window_start, "stay_window_end", patch.stay_window_end)
  )

/**
 * Every rule on a plan's own fields, in the order of 2.2; answers the fields with money and percentages
 * normalised for storage. `currencies` are the property's base currency and its configured ones.
 */
export const checkFields = (fields: RatePlanFields, currencies: ReadonlyArray<string>): Check<RatePlanFields> => {
  const currency = fields.currency
  const checked = Result.all({
    currency: currencyRule(currency, currencies),
    base_price: money("base_price", fields.base_price, currency),
    extra_guest_charge: money("extra_guest_charge", fields.extra_guest_charge, currency),
    single_guest_discount: fields.single_guest_discount_type === "percent"
      ? percent("single_guest_discount", fields.single_guest_discount, 0, 100)
      : money("single_guest_discount", fields.single_guest_discount, currency),
    los: bounds("min_los", fields.min_los, "max_los", fields.max_los),
    booking: window("booking_window_start", fields.booking_window_start, "booking_window_end", fields.booking_window_end),
    stay: window("stay_window_start", fields.stay_window_start, "stay_window_end", fields.stay_window_end),
    derivation: checkDerivation(fields),
    policy: checkPolicy(fields.cancellation_policy)
  })
  return Result.map(checked, (c) => ({
    ...fields,
    base_price: c.base_price,
    extra_guest_charge: c.extra_guest_charge,
    single_guest_discount: c.single_guest_discount,
    derivation_value: c.derivation,
    cancellation_policy: c.policy
  }))
}

/** Derivation fields go together: both with `derived_from_id`, neither without it. */
const checkDerivation = (fields: RatePlanFields): Check<string | null> => {
  if (fields.derived_from_id === null) {
    if (fields.derivation_type !== null) return fail("derivation_type", "is only allowed with derived_from_id")
    if (fields.derivation_value !== null) return fail("derivation_value", "is only allowed with derived_from_id")
    return Result.succeed(null)
  }
  if (fields.derivation_type === null) return fail("derivation_type", "is required with derived_from_id")
  if (fields.derivation_value === null) return fail("derivation_value", "is required with derived_from_id")
  return fields.derivation_type === "percent"
    ? percent("derivation_value", fields.derivation_value, -100, 1000)
    : money("derivation_value", fields.derivation_value, fields.currency, { allowNegative: true })
}

/** Tiers with distinct `days_before_arrival`, stored most days first. */
const checkPolicy = (tiers: ReadonlyArray<CancellationTier> | null): Check<ReadonlyArray<CancellationTier> | null> => {
  if (tiers === null) return Result.succeed(null)
  const seen = new Set<number>()
  for (const [i, tier] of tiers.entries()) {
    if (seen.has(tier.days_before_arrival)) {
      return fail(`cancellation_policy[${i}].days_before_arrival`, `duplicate value ${tier.days_before_arrival}`)
    }
    seen.add(tier.days_before_arrival)
  }
  return Result.succeed(
    [...tiers]
      .sort((a, b) => b.days_before_arrival - a.days_before_arrival)
      .map((t) => ({ days_before_arrival: t.days_before_arrival, refund_percent: t.refund_percent }))
  )
}

/**
 * A derived plan prices its parent's room type in its parent's currency, and no chain of parents leads back
 * to the plan itself. `parents` maps every live plan of the property to its parent.
 */
export const checkParent = (
  planId: string | undefined,
  fields: RatePlanFields,
  parent: ParentPlan,
  parents: ReadonlyMap<string, string | null>
): Check<void> =>
  all(
    () => (planId !== undefined && createsCycle(planId, parent.id, parents)
      ? fail("derived_from_id", "would create a derivation cycle (a plan cannot derive from itself or its descendants)")
      : ok),
    () => (fields.room_type_id === parent.room_type_id
      ? ok
      : fail("room_type_id", `must be the parent plan's room type (${parent.room_type_id})`)),
    () => (fields.currency === parent.currency
      ? ok
      : fail("currency", `must be the parent plan's currency (${parent.currency})`))
  )

/** Whether making `planId` derive from `parentId` closes a loop in the derivation graph. */
export const createsCycle = (
  planId: string,
  parentId: string,
  parents: ReadonlyMap<string, string | null>
): boolean => {
  const seen = new Set<string>()
  let current: string | null | undefined = parentId
  while (current != null && !seen.has(current)) {
    if (current === planId) return true
    seen.add(current)
    current = parents.get(current)
  }
  return false
}
