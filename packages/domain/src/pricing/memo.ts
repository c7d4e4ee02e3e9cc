// What one request prices more than once. `GET /rates` quotes every plan for the same stay: the nights are the
// same for each, and a parent plan's nightly price is needed again by each plan derived from it (a 5-level
// chain would otherwise price its root five times a night). The memo is made for ONE request and dropped with
// it, never kept in module state, so no price outlives the snapshot its plans were loaded from. Plans are keyed
// by object identity: a snapshot builds each plan once and children point at that same parent object.
import { type IsoDate, type StayNight, stayNightsOf } from "./dates.js"
import type { RatePlan } from "./model.js"
import type { NightlyPrice } from "./nightly.js"

export interface PricingMemo {
  /** The nights of a stay, worked out once per request. */
  readonly nightsOf: (checkIn: IsoDate, checkOut: IsoDate) => ReadonlyArray<StayNight>
  /** The nightly prices already computed for a plan, a guest count and a trace setting, by epoch day. */
  readonly nightlyPrices: (plan: RatePlan, guests: number, trace: boolean) => Map<number, NightlyPrice>
  /**
   * A plan's own trace detail for a guest count, made once: it reads the same every night, and one string
   * shared by every night is flattened once when the answer is serialised, not once a night.
   */
  readonly planDetail: (plan: RatePlan, guests: number, make: () => string) => string
}

export const makePricingMemo = (): PricingMemo => {
  const stays = new Map<IsoDate, Map<IsoDate, ReadonlyArray<StayNight>>>()
  const prices = new Map<RatePlan, Map<number, Map<number, NightlyPrice>>>()
  const details = new Map<RatePlan, Map<number, string>>()
  return {
    nightsOf: (checkIn, checkOut) => {
      let byCheckOut = stays.get(checkIn)
      if (byCheckOut === undefined) {
        byCheckOut = new Map()
        stays.set(checkIn, byCheckOut)
      }
      const known = byCheckOut.get(checkOut)
      if (known !== undefined) return known
      const nights = stayNightsOf(checkIn, checkOut)
      byCheckOut.set(checkOut, nights)
      return nights
    },
    nightlyPrices: (plan, guests, trace) => {
      let ofPlan = prices.get(plan)
      if (ofPlan === undefined) {
        ofPlan = new Map()
        prices.set(plan, ofPlan)
      }
      // A trace-less price has an empty trace, so the two settings never share an entry.
      const key = guests * 2 + (trace ? 1 : 0)
      let byDay = ofPlan.get(key)
      if (byDay === undefined) {
        byDay = new Map()
        ofPlan.set(key, byDay)
      }
      return byDay
    },
    planDetail: (plan, guests, make) => {
      let ofPlan = details.get(plan)
      if (ofPlan === undefined) {
        ofPlan = new Map()
        details.set(plan, ofPlan)
      }
      let detail = ofPlan.get(guests)
      if (detail === undefined) {
        detail = make()
        ofPlan.set(guests, detail)
      }
      return detail
    }
  }
}
