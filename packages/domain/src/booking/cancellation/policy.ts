// Cancellation policy: tiers of { daysBeforeArrival, refundPercent }; the tier with the
// largest daysBeforeArrival not above the actual days before arrival applies; no such tier refunds 0%.
// "Days before arrival" counts local calendar days in the property's zone: cancelling on the
// arrival date is 0 days before, the day before is 1, after arrival it is negative.
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import * as Money from "../../money/Money.js"
import type { Amount } from "../../money/Money.js"
import { percentOf } from "../../quotes/arith.js"
import { addDays, daysBetween, type IsoDate } from "../../quotes/dates.js"
import type { CancellationTier, PricingProperty, RatePlan } from "../../quotes/model.js"
import { startOfLocalDay } from "../../rates/visibility/localTime.js"

export interface CancellationTerm {
  /** Cancelling before this instant (UTC ISO) refunds `refundPercent`; null for the last term. */
  readonly until: string | null
  readonly refundPercent: number
}

/** A plan's own policy when it has one (even an empty one), else the property default. */
export const policyFor = (plan: RatePlan, property: PricingProperty): ReadonlyArray<CancellationTier> =>
  plan.cancellationPolicy ?? property.cancellationPolicy ?? []

export const daysBeforeArrival = (today: IsoDate, checkIn: IsoDate): number => daysBetween(today, checkIn)

/** Tiers by descending days; for two tiers with the same days the first listed wins (stable sort). */
const byDaysDescending = (tiers: ReadonlyArray<CancellationTier>): ReadonlyArray<CancellationTier> => {
  const sorted = [...tiers].sort((a, b) => b.daysBeforeArrival - a.daysBeforeArrival)
  return sorted.filter((tier, i) => i === 0 || sorted[i - 1].daysBeforeArrival !== tier.daysBeforeArrival)
}

export const tierInForce = (tiers: ReadonlyArray<CancellationTier>, days: number): Option.Option<CancellationTier> =>
  Option.fromNullishOr(byDaysDescending(tiers).find((tier) => tier.daysBeforeArrival <= days))

export const refundPercentFor = (tiers: ReadonlyArray<CancellationTier>, days: number): number =>
  Option.match(tierInForce(tiers, days), { onNone: () => 0, onSome: (tier) => tier.refundPercent })

/** paid × percent / 100 in minor units of `currency`, rounded down (never negative). */
export const refundDueMinor = (paid: Amount, currency: string, percent: number): bigint => {
  if (BigDecimal.isNegative(paid) || percent <= 0) return 0n
  return Money.toMinorFloor(percentOf(paid, BigDecimal.fromNumberUnsafe(percent)), currency)
}

/**
 * The terms in time order. A tier with D days applies while days-before-arrival >= D, i.e. through the
 * local date checkIn − D; it ends when local date checkIn − D + 1 begins, so its `until` is the start of
 * that local day in the property's zone. After the smallest tier, nothing is refunded (`until` null).
 * Adjacent terms with the same percent are merged. With `now`, terms already over are left out, so the
 * first term is the one in force.
 */
export const cancellationTerms = (
  tiers: ReadonlyArray<CancellationTier>,
  checkIn: IsoDate,
  timeZone: string,
  now?: Date
): ReadonlyArray<CancellationTerm> => {
  const timed = byDaysDescending(tiers).map((tier) => ({
    until: startOfLocalDay(addDays(checkIn, 1 - tier.daysBeforeArrival), timeZone).toISOString(),
    refundPercent: tier.refundPercent
  }))
  const all: Array<CancellationTerm> = [...timed, { until: null, refundPercent: 0 }]
  const merged = all.filter((term, i) => i === all.length - 1 || all[i + 1].refundPercent !== term.refundPercent)
  return now === undefined ? merged : merged.filter((term) => term.until === null || now.getTime() < Date.parse(term.until))
}

/** The term in force at `now`: the first whose `until` is still ahead (the last one otherwise). */
export const termInForce = (terms: ReadonlyArray<CancellationTerm>, now: Date): CancellationTerm =>
  terms.find((term) => term.until === null || now.getTime() < Date.parse(term.until)) ?? { until: null, refundPercent: 0 }
