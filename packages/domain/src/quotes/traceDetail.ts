// The words of a night's trace: what each step did, for the person reading a quote. Kept apart from the
// arithmetic (./nightly.ts), which only decides when a step is recorded.
import * as BigDecimal from "effect/BigDecimal"
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"
import type { ResolvedDiscount } from "./charges.js"
import type { Weekday } from "./dates.js"
import type { PricingMemo } from "./memo.js"
import type { Derivation, Interval, RatePlan } from "./model.js"

const intervalLabel = (interval: Interval): string =>
  interval.name ?? `${interval.startDate}..${interval.endDate}`

/** A seasonal price: the interval (its name, else its dates) and the weekday whose price it is. */
export const intervalDetail = (interval: Interval, weekday: Weekday): string => `${intervalLabel(interval)} (${weekday})`

export const derivationDetail = (plan: RatePlan, derivation: Derivation, guests: number): string => {
  const value = BigDecimal.format(BigDecimal.normalize(derivation.value))
  switch (derivation.type) {
    case "percent":
      return `plan ${plan.id}: ${value}%`
    case "fixed":
      return `plan ${plan.id}: ${value} per night`
    case "perPerson":
      return `plan ${plan.id}: ${value} x ${guests} guest(s)`
  }
}

/**
 * A plan's own detail for a guest count, from the request's memo when there is one: it reads the same every
 * night (see `PricingMemo.planDetail`).
 */
export const planDetail = (plan: RatePlan, guests: number, memo: PricingMemo | undefined, make: () => string): string =>
  memo === undefined ? make() : memo.planDetail(plan, guests, make)

export const discountDetail = (plan: RatePlan, discount: ResolvedDiscount, nightly: Amount, off: Amount): string => {
  const fmt = (a: Amount) => Money.format(a, plan.currency)
  const what = discount.type === "percent"
    ? `${BigDecimal.format(BigDecimal.normalize(discount.amount))}% of ${fmt(nightly)}`
    : "fixed"
  return `${what}: -${fmt(off)}`
}

/**
 * The exact price the rounding started from: the steps before it show running prices at the currency's digits
 * (10.01 + 50% shows 15.02), so without it the rounding would seem to change nothing.
 */
export const roundingDetail = (exact: Amount, currency: string): string =>
  // Formatted from a copy: formatting caches the normalised form on the value, and `exact` may be the night's
  // own amount.
  `${BigDecimal.format(BigDecimal.make(exact.value, exact.scale))} rounded half away from zero to ${currency} minor units`
