// One night of a stay: the plan's nightly price (interval weekday price or base price, then
// each derivation step up the chain), plus extra guests, minus the single-guest discount, never below zero,
// rounded half away from zero to the currency's minor units. Every step is recorded in a trace.
import * as BigDecimal from "effect/BigDecimal"
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"
import { nonNegative, percentOf, times, ZERO } from "./arith.js"
import { extraGuestChargeFor, intervalFor, singleGuestDiscountFor } from "./charges.js"
import { type IsoDate, weekdayOf } from "./dates.js"
import { childSharePercent, type Guests } from "./guests.js"
import type { AgeBracket, Derivation, Interval, RatePlan } from "./model.js"

export type TraceStep = "base" | "interval" | "derivation" | "extra_guest" | "single_guest_discount" | "rounding"

/**
 * One step of a night's price. `amount` is the night's running price AFTER the step (so the last entry,
 * `rounding`, is the night's amount); `detail` says what the step did, including its own contribution.
 */
export interface TraceEntry {
  readonly step: TraceStep
  readonly amount: string
  readonly detail?: string
}

export interface NightlyPrice {
  /** Exact (unrounded), never negative. */
  readonly amount: Amount
  readonly trace: ReadonlyArray<TraceEntry>
}

export interface PricedNight {
  readonly date: IsoDate
  /** Rounded to the plan currency's minor units. */
  readonly amount: Amount
  readonly trace: ReadonlyArray<TraceEntry>
}

const intervalLabel = (interval: Interval): string =>
  interval.name ?? `${interval.startDate}..${interval.endDate}`

const applyDerivation = (derivation: Derivation, price: Amount, guests: number): Amount => {
  switch (derivation.type) {
    case "percent":
      return BigDecimal.sum(price, percentOf(price, derivation.value))
    case "fixed":
      return BigDecimal.sum(price, derivation.value)
    case "perPerson":
      return BigDecimal.sum(price, times(derivation.value, guests))
  }
}

const derivationDetail = (plan: RatePlan, derivation: Derivation, guests: number): string => {
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
 * The plan's nightly price for a date, before guest charges. A derived plan prices from its parent
 * (recursively, the parent's intervals included); its own intervals carry no weekday prices (
 * rejects them), so any found there are ignored. Each derivation step is floored at zero: a parent's
 * price is itself never negative, and the child derives from that price.
 */
export const nightlyPrice = (plan: RatePlan, date: IsoDate, guests: number): NightlyPrice => {
  const derivation = plan.derivation
  if (derivation != null) {
    const parent = nightlyPrice(derivation.parent, date, guests)
    const amount = nonNegative(applyDerivation(derivation, parent.amount, guests))
    const entry: TraceEntry = {
      step: "derivation",
      amount: Money.format(amount, plan.currency),
      detail: derivationDetail(plan, derivation, guests)
    }
    return { amount, trace: [...parent.trace, entry] }
  }
  const interval = intervalFor(plan, date)
  const weekday = weekdayOf(date)
  const seasonal = interval?.prices?.[weekday]
  if (interval !== undefined && seasonal != null) {
    const amount = nonNegative(seasonal)
    const detail = `${intervalLabel(interval)} (${weekday})`
    return { amount, trace: [{ step: "interval", amount: Money.format(amount, plan.currency), detail }] }
  }
  const amount = nonNegative(plan.basePrice)
  return { amount, trace: [{ step: "base", amount: Money.format(amount, plan.currency), detail: `plan ${plan.id}` }] }
}

/** The extra-guest part of a night, with a description of who pays what. */
const extraGuests = (plan: RatePlan, date: IsoDate, guests: Guests, brackets: ReadonlyArray<AgeBracket>) => {
  const charge = extraGuestChargeFor(plan, date).amount
  const fmt = (a: Amount) => Money.format(a, plan.currency)
  const parts: Array<string> = []
  let total = times(charge, guests.extraAdults)
  if (guests.extraAdults > 0) parts.push(`${guests.extraAdults} extra adult(s) x ${fmt(charge)}`)
  for (const age of guests.extraChildren) {
    const share = childSharePercent(brackets, age)
    const amount = percentOf(charge, share)
    total = BigDecimal.sum(total, amount)
    const shown = BigDecimal.format(BigDecimal.normalize(share))
    parts.push(`child (age ${age === null ? "unknown" : age}) ${shown}% = ${fmt(amount)}`)
  }
  return { total, detail: `${parts.join("; ")} (total ${fmt(total)})` }
}

/** A full night: nightly price + extra guests − single-guest discount, floored at zero, rounded. */
export const priceNight = (
  plan: RatePlan,
  date: IsoDate,
  guests: Guests,
  brackets: ReadonlyArray<AgeBracket>
): PricedNight => {
  const nightly = nightlyPrice(plan, date, guests.total)
  const fmt = (a: Amount) => Money.format(a, plan.currency)
  const trace: Array<TraceEntry> = [...nightly.trace]
  let running = nightly.amount
  if (guests.extraAdults + guests.extraChildren.length > 0) {
    const extra = extraGuests(plan, date, guests, brackets)
    running = BigDecimal.sum(running, extra.total)
    trace.push({ step: "extra_guest", amount: fmt(running), detail: extra.detail })
  }
  if (guests.total === 1) {
    const discount = singleGuestDiscountFor(plan, date)
    const off = discount.type === "percent" ? percentOf(nightly.amount, discount.amount) : discount.amount
    if (!BigDecimal.equals(off, ZERO)) {
      running = nonNegative(BigDecimal.subtract(running, off))
      const what = discount.type === "percent"
        ? `${BigDecimal.format(BigDecimal.normalize(discount.amount))}% of ${fmt(nightly.amount)}`
        : "fixed"
      trace.push({ step: "single_guest_discount", amount: fmt(running), detail: `${what}: -${fmt(off)}` })
    }
  }
  const amount = Money.round(running, plan.currency)
  trace.push({ step: "rounding", amount: fmt(amount), detail: `half away from zero to ${plan.currency} minor units` })
  return { date, amount, trace }
}
