// The rules a change of a stored plan adds to the field rules: they need the stored
// plan and what depends on it, loaded under the property's lock.
import * as Result from "effect/Result"
import { DefaultRatePlanProtected } from "../../errors/BusinessErrors.js"
import type { InvalidParameters } from "../../errors/RequestErrors.js"
import { fail, ok } from "../checks.js"
import type { RatePlanFields } from "./fields.js"

export interface StoredPlanFacts {
  readonly currency: string
  readonly single_guest_discount_type: "fixed" | "percent"
  readonly derived_from_id: string | null
  readonly is_default: boolean
  /** Live plans deriving from this one. */
  readonly liveChildren: number
  /** Its intervals that carry a weekday price. */
  readonly weekdayPricedIntervals: number
  /** Its intervals that carry an extra-guest charge above 0.00. */
  readonly extraGuestIntervals: number
  /** Its intervals that carry a single-guest discount above 0.00. */
  readonly discountIntervals: number
}

/**
 * A change of `stored` into `fields`: its currency cannot change while other plans derive from it (they price
 * in its currency) or while its intervals carry money (an interval's "150.45" would silently become yen); the
 * discount type cannot change while intervals carry a discount (their "30.00" would become 30 percent); a root
 * plan with weekday-priced intervals cannot become derived (a derived plan's intervals carry none); the
 * property's default plan cannot be deactivated (403 `default_rate_plan_protected`).
 */
export const checkUpdate = (
  stored: StoredPlanFacts,
  fields: RatePlanFields
): Result.Result<void, InvalidParameters | DefaultRatePlanProtected> => {
  if (fields.currency !== stored.currency && stored.liveChildren > 0) {
    return fail("currency", "cannot change while other rate plans derive from this one (they price in its currency)")
  }
  if (fields.currency !== stored.currency) {
    const fixedDiscounts = stored.single_guest_discount_type === "fixed" ? stored.discountIntervals : 0
    if (stored.weekdayPricedIntervals + stored.extraGuestIntervals + fixedDiscounts > 0) {
      return fail(
        "currency",
        "cannot change while the plan's intervals carry amounts in it (clear them or delete the intervals first)"
      )
    }
  }
  if (fields.single_guest_discount_type !== stored.single_guest_discount_type && stored.discountIntervals > 0) {
    return fail(
      "single_guest_discount_type",
      "cannot change while the plan's intervals carry a single-guest discount (clear it or delete the intervals first)"
    )
  }
  if (stored.derived_from_id === null && fields.derived_from_id !== null && stored.weekdayPricedIntervals > 0) {
    return fail(
      "derived_from_id",
      "the plan has intervals with weekday prices; a derived plan's intervals carry none (clear them first)"
    )
  }
  if (stored.is_default && !fields.is_active) {
    return Result.fail(new DefaultRatePlanProtected({ message: "The property's default rate plan cannot be deactivated" }))
  }
  return ok
}
