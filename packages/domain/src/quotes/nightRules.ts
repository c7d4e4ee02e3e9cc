// A plan's stay rules on one night: its override where `POST /ari` set one, else the covering interval's (none,
// and `false`, without one). An override replaces the interval's value both ways: `false` opens a night the
// interval closes and `min_stay: 1` lifts its minimum. The visibility rule and `GET /ari` read them here only.
import { intervalFor } from "./charges.js"
import type { IsoDate } from "./dates.js"
import type { RatePlan } from "./model.js"

export interface NightRules {
  readonly minStay: number | null
  readonly maxStay: number | null
  readonly closedToArrival: boolean
  readonly closedToDeparture: boolean
  readonly stopSell: boolean
}

export const nightRulesFor = (plan: RatePlan, date: IsoDate): NightRules => {
  const interval = intervalFor(plan, date)
  const own = plan.nights?.get(date)
  return {
    minStay: own?.minStay ?? interval?.minStay ?? null,
    maxStay: own?.maxStay ?? interval?.maxStay ?? null,
    closedToArrival: own?.closedToArrival ?? interval?.closedToArrival ?? false,
    closedToDeparture: own?.closedToDeparture ?? interval?.closedToDeparture ?? false,
    stopSell: own?.stopSell ?? interval?.stopSell ?? false
  }
}

/** Whether the plan has an override on some night of `[from, to)` (a plan without any skips the night walk). */
export const hasNightsIn = (plan: RatePlan, from: IsoDate, to: IsoDate): boolean => {
  const nights = plan.nights
  if (nights == null || nights.size === 0) return false
  for (const date of nights.keys()) if (from <= date && date < to) return true
  return false
}

/** The plan and every plan it derives from, nearest first: whose night rules a stay on the plan must meet. */
export const planChain = (plan: RatePlan): ReadonlyArray<RatePlan> => {
  const chain: Array<RatePlan> = []
  for (let p: RatePlan | undefined = plan; p !== undefined; p = p.derivation?.parent) chain.push(p)
  return chain
}
