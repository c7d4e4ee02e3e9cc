// One night of a stay: the plan's nightly price (the night's override, else the interval weekday price, else the
// base price; then each derivation step up the chain), plus extra guests, minus the single-guest discount, never below zero,
// rounded half away from zero to the currency's minor units. Every step is recorded in a trace when the caller
// asks for one; without it no entry, string or formatted amount is built (holds, and quotes without `include=trace`).
import * as BigDecimal from "effect/BigDecimal"
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"
import { nonNegative, percentOf, times } from "./arith.js"
import { extraGuestChargeFor, intervalFor, singleGuestDiscountFor } from "./charges.js"
import { type IsoDate, type StayNight, stayNightOf } from "./dates.js"
import { type ChildAge, childSharePercent, type Guests } from "./guests.js"
import type { PricingMemo } from "./memo.js"
import type { AgeBracket, Derivation, RatePlan } from "./model.js"
import { derivationDetail, discountDetail, intervalDetail, planDetail, roundingDetail } from "./traceDetail.js"

export type TraceStep = "base" | "override" | "interval" | "derivation" | "extra_guest" | "single_guest_discount" | "rounding"

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
  /** Empty when the trace was not asked for. */
  readonly trace: ReadonlyArray<TraceEntry>
}

export interface PricedNight {
  readonly date: IsoDate
  /** Rounded to the plan currency's minor units. */
  readonly amount: Amount
  /** Empty when the trace was not asked for. */
  readonly trace: ReadonlyArray<TraceEntry>
}

export interface NightOptions {
  /** Record each step (default true). */
  readonly trace?: boolean | undefined
  /** The request's memo (see memo.ts); without one every derived night prices its whole chain. */
  readonly memo?: PricingMemo | undefined
}

/** What every night of one stay on one plan shares, worked out once per stay. */
export interface NightContext {
  readonly guests: Guests
  /** The extra children, oldest first, each with the percent of the extra-guest charge they pay. */
  readonly extraChildren: ReadonlyArray<{ readonly age: ChildAge; readonly percent: Amount }>
  readonly trace: boolean
  readonly memo: PricingMemo | undefined
}

const NO_TRACE: ReadonlyArray<TraceEntry> = Object.freeze([])

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

/**
 * The plan's nightly price for a date, before guest charges. A derived plan prices from its parent
 * (recursively, the parent's intervals included); its own intervals carry no weekday prices (the write path
 * rejects them), so any found there are ignored. Each derivation step is floored at zero: a parent's
 * price is itself never negative, and the child derives from that price.
 */
export const nightlyPrice = (plan: RatePlan, date: IsoDate, guests: number, options: NightOptions = {}): NightlyPrice =>
  nightlyOf(plan, stayNightOf(date), guests, options.trace ?? true, options.memo)

/** How a night of a plan is priced, for a party of `guests`, with or without its trace. */
type PriceNightOf = (
  plan: RatePlan,
  night: StayNight,
  guests: number,
  trace: boolean,
  memo: PricingMemo | undefined
) => NightlyPrice

/** `nightlyPrice` of a parsed night, from the request's memo when there is one. */
const nightlyOf: PriceNightOf = (plan, night, guests, trace, memo) => {
  if (memo === undefined) return computeNightly(plan, night, guests, trace, memo)
  const known = memo.nightlyPrices(plan, guests, trace)
  const cached = known.get(night.epochDay)
  if (cached !== undefined) return cached
  const priced = computeNightly(plan, night, guests, trace, memo)
  known.set(night.epochDay, priced)
  return priced
}

const computeNightly: PriceNightOf = (plan, night, guests, trace, memo) => {
  const block = plan.blockPrice
  if (block != null && block.from <= night.date && night.date < block.to) {
    const amount = nonNegative(block.price)
    if (!trace) return { amount, trace: NO_TRACE }
    return { amount, trace: [{ step: "base", amount: Money.format(amount, plan.currency), detail: "block price" }] }
  }
  const derivation = plan.derivation
  if (derivation != null) {
    const parent = nightlyOf(derivation.parent, night, guests, trace, memo)
    const amount = nonNegative(applyDerivation(derivation, parent.amount, guests))
    if (!trace) return { amount, trace: NO_TRACE }
    const entry: TraceEntry = {
      step: "derivation",
      amount: Money.format(amount, plan.currency),
      detail: planDetail(plan, guests, memo, () => derivationDetail(plan, derivation, guests))
    }
    return { amount, trace: withEntry(parent.trace, entry) }
  }
  // A night's override (`POST /ari`) comes before the interval's weekday price.
  const override = plan.nights?.get(night.date)?.price
  if (override != null) {
    const amount = nonNegative(override)
    if (!trace) return { amount, trace: NO_TRACE }
    const detail = `override of plan ${plan.id} on ${night.date}`
    return { amount, trace: [{ step: "override", amount: Money.format(amount, plan.currency), detail }] }
  }
  const interval = intervalFor(plan, night.date)
  const seasonal = interval?.prices?.[night.weekday]
  if (interval !== undefined && seasonal != null) {
    const amount = nonNegative(seasonal)
    if (!trace) return { amount, trace: NO_TRACE }
    const detail = intervalDetail(interval, night.weekday)
    return { amount, trace: [{ step: "interval", amount: Money.format(amount, plan.currency), detail }] }
  }
  const amount = nonNegative(plan.basePrice)
  if (!trace) return { amount, trace: NO_TRACE }
  const detail = planDetail(plan, guests, memo, () => `plan ${plan.id}`)
  return { amount, trace: [{ step: "base", amount: Money.format(amount, plan.currency), detail }] }
}

const withEntry = (trace: ReadonlyArray<TraceEntry>, entry: TraceEntry): Array<TraceEntry> => {
  const out = trace.slice()
  out.push(entry)
  return out
}

/** What the nights of a stay share, worked out once per stay rather than per night (the children's shares). */
export const nightContext = (
  guests: Guests,
  brackets: ReadonlyArray<AgeBracket>,
  options: NightOptions = {}
): NightContext => ({
  guests,
  extraChildren: guests.extraChildren.map((age) => ({ age, percent: childSharePercent(brackets, age) })),
  trace: options.trace ?? true,
  memo: options.memo
})

/** The extra-guest part of a night, and (when traced) a description of who pays what. */
const extraGuests = (plan: RatePlan, date: IsoDate, context: NightContext) => {
  const charge = extraGuestChargeFor(plan, date)
  const { extraAdults } = context.guests
  let total = times(charge, extraAdults)
  const amounts = context.extraChildren.map((child) => percentOf(charge, child.percent))
  for (const amount of amounts) total = BigDecimal.sum(total, amount)
  if (!context.trace) return { total, detail: "" }
  const fmt = (a: Amount) => Money.format(a, plan.currency)
  const parts: Array<string> = []
  if (extraAdults > 0) parts.push(`${extraAdults} extra adult(s) x ${fmt(charge)}`)
  context.extraChildren.forEach((child, i) => {
    const shown = BigDecimal.format(BigDecimal.normalize(child.percent))
    parts.push(`child (age ${child.age === null ? "unknown" : child.age}) ${shown}% = ${fmt(amounts[i])}`)
  })
  return { total, detail: `${parts.join("; ")} (total ${fmt(total)})` }
}

/** A full night: nightly price + extra guests − single-guest discount, floored at zero, rounded. */
export const priceNight = (
  plan: RatePlan,
  date: IsoDate,
  guests: Guests,
  brackets: ReadonlyArray<AgeBracket>,
  options: NightOptions = {}
): PricedNight => priceNightIn(plan, stayNightOf(date), nightContext(guests, brackets, options))

/** `priceNight` of a parsed night, with what the stay's nights share. */
export const priceNightIn = (plan: RatePlan, night: StayNight, context: NightContext): PricedNight => {
  const { guests, trace } = context
  const nightly = nightlyOf(plan, night, guests.total, trace, context.memo)
  const steps = trace ? nightly.trace.slice() : undefined
  let running = nightly.amount
  if (guests.extraAdults + guests.extraChildren.length > 0) {
    const extra = extraGuests(plan, night.date, context)
    running = BigDecimal.sum(running, extra.total)
    steps?.push({ step: "extra_guest", amount: Money.format(running, plan.currency), detail: extra.detail })
  }
  if (guests.total === 1) {
    const discount = singleGuestDiscountFor(plan, night.date)
    const off = discount.type === "percent" ? percentOf(nightly.amount, discount.amount) : discount.amount
    if (!BigDecimal.isZero(off)) {
      running = nonNegative(BigDecimal.subtract(running, off))
      steps?.push({
        step: "single_guest_discount",
        amount: Money.format(running, plan.currency),
        detail: discountDetail(plan, discount, nightly.amount, off)
      })
    }
  }
  const amount = Money.round(running, plan.currency)
  if (steps === undefined) return { date: night.date, amount, trace: NO_TRACE }
  // The last entry shows `running`; a price already at the currency's scale comes back from rounding as is.
  const last = steps.at(-1)
  const shown = amount === running && last !== undefined ? last.amount : Money.format(amount, plan.currency)
  // Only a rounding that changed the price says how: the same sentence on every night made a ninth of a
  // 30-night quote on 24 plans.
  steps.push(
    amount === running || BigDecimal.equals(amount, running)
      ? { step: "rounding", amount: shown }
      : { step: "rounding", amount: shown, detail: roundingDetail(running, plan.currency) }
  )
  return { date: night.date, amount, trace: steps }
}
