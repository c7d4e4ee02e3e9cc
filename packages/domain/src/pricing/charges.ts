// Which extra-guest charge and single-guest discount apply to a night, for plain and derived
// plans alike.
//
// Resolution for a plan P on a night, first match wins:
//   1. P's own interval covering the night, when its figure is above 0.00 ("0.00" means no override);
//   2. P's own plan-level figure, when above 0.00;
//   3. for a derived plan, the same resolution on its parent (so a promotion created without guest figures
//      inherits the parent's, seasonal overrides included);
//   4. otherwise P's own figure (0.00).
// The derivation (percent/fixed/perPerson) is NOT applied to these figures: it prices the room night, and a
// promotion that wants different guest charges sets its own. A discount's type travels with the plan whose
// figure won (a parent's 10 percent never becomes 10.00 fixed on its child).
import type { Amount } from "../money/Money.js"
import { isPositive } from "./arith.js"
import { coversNight, type IsoDate } from "./dates.js"
import type { DiscountType, Interval, RatePlan } from "./model.js"

/**
 * The plan's interval covering a night. Intervals of one plan never overlap (the write path refuses it);
 * should they, the latest-starting one wins, so the answer never depends on the order they were created in.
 */
export const intervalFor = (plan: RatePlan, date: IsoDate): Interval | undefined => {
  let found: Interval | undefined
  for (const interval of plan.intervals) {
    if (!coversNight(interval, date)) continue
    if (found === undefined || compareIntervals(interval, found) > 0) found = interval
  }
  return found
}

const compareIntervals = (a: Interval, b: Interval): number =>
  a.startDate !== b.startDate
    ? (a.startDate < b.startDate ? -1 : 1)
    : a.endDate !== b.endDate
    ? (a.endDate > b.endDate ? -1 : 1)
    : (a.id ?? "") < (b.id ?? "") ? -1 : (a.id ?? "") > (b.id ?? "") ? 1 : 0

export interface ResolvedCharge {
  readonly amount: Amount
  /** The plan whose figure applies, and whether it came from one of its intervals (for the trace). */
  readonly planId: string
  readonly fromInterval: boolean
}

const resolve = (
  plan: RatePlan,
  date: IsoDate,
  ofInterval: (interval: Interval) => Amount | null | undefined,
  ofPlan: (plan: RatePlan) => Amount
): ResolvedCharge & { readonly plan: RatePlan } => {
  const interval = intervalFor(plan, date)
  const override = interval === undefined ? undefined : ofInterval(interval)
  if (isPositive(override)) return { amount: override, planId: plan.id, fromInterval: true, plan }
  const own = ofPlan(plan)
  if (isPositive(own) || plan.derivation == null) return { amount: own, planId: plan.id, fromInterval: false, plan }
  const inherited = resolve(plan.derivation.parent, date, ofInterval, ofPlan)
  return isPositive(inherited.amount) ? inherited : { amount: own, planId: plan.id, fromInterval: false, plan }
}

/** Per extra adult per night, in the plan currency. */
export const extraGuestChargeFor = (plan: RatePlan, date: IsoDate): ResolvedCharge => {
  const { plan: _, ...charge } = resolve(plan, date, (i) => i.extraGuestCharge, (p) => p.extraGuestCharge)
  return charge
}

export interface ResolvedDiscount extends ResolvedCharge {
  readonly type: DiscountType
}

/** A party of one's discount per night: a fixed amount or a percent of the nightly price. */
export const singleGuestDiscountFor = (plan: RatePlan, date: IsoDate): ResolvedDiscount => {
  const { plan: owner, ...charge } = resolve(plan, date, (i) => i.singleGuestDiscount, (p) => p.singleGuestDiscount)
  return { ...charge, type: owner.singleGuestDiscountType }
}
