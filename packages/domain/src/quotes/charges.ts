// Which extra-guest charge and single-guest discount apply to a night. They are the plan's own figures, a
// derived plan's too: the contract derives only the nightly price from the parent ("the plan's
// extra_guest_charge"), so a promotion without guest figures charges no extra guests and gives no single-guest
// discount, whatever its parent does. For a plan on a night: its own interval covering the night when that
// interval's figure is above 0.00 ("0.00" means no override), else the plan's own figure.
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

const resolve = (
  plan: RatePlan,
  date: IsoDate,
  ofInterval: (interval: Interval) => Amount | null | undefined,
  ofPlan: (plan: RatePlan) => Amount
): Amount => {
  const interval = intervalFor(plan, date)
  const override = interval === undefined ? undefined : ofInterval(interval)
  return isPositive(override) ? override : ofPlan(plan)
}

/** Per extra adult per night, in the plan currency. */
export const extraGuestChargeFor = (plan: RatePlan, date: IsoDate): Amount =>
  resolve(plan, date, (i) => i.extraGuestCharge, (p) => p.extraGuestCharge)

export interface ResolvedDiscount {
  readonly amount: Amount
  readonly type: DiscountType
}

/** A party of one's discount per night: a fixed amount or a percent of the nightly price. */
export const singleGuestDiscountFor = (plan: RatePlan, date: IsoDate): ResolvedDiscount => ({
  amount: resolve(plan, date, (i) => i.singleGuestDiscount, (p) => p.singleGuestDiscount),
  type: plan.singleGuestDiscountType
})
