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

/** The entry of `key`, made and kept the first time it is asked for. */
const entry = <K, V>(map: Map<K, V>, key: K, make: () => V): V => {
  const known = map.get(key)
  if (known !== undefined) return known
  const made = make()
  map.set(key, made)
  return made
}

export const makePricingMemo = (): PricingMemo => {
  const stays = new Map<IsoDate, Map<IsoDate, ReadonlyArray<StayNight>>>()
  const prices = new Map<RatePlan, Map<number, Map<number, NightlyPrice>>>()
  const details = new Map<RatePlan, Map<number, string>>()
  return {
    nightsOf: (checkIn, checkOut) =>
      entry(entry(stays, checkIn, () => new Map()), checkOut, () => stayNightsOf(checkIn, checkOut)),
    // A trace-less price has an empty trace, so the two settings never share an entry.
    nightlyPrices: (plan, guests, trace) =>
      entry(entry(prices, plan, () => new Map()), guests * 2 + (trace ? 1 : 0), () => new Map()),
    planDetail: (plan, guests, make) => entry(entry(details, plan, () => new Map()), guests, make)
  }
}
