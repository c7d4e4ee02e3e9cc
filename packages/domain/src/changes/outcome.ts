// What a planned change does with the rooms counted free on every night of its new stay: the nights and lines
// of the new stay, the totals and the money (`outcomeOf`); what a PATCH books (`bookedQuote`) and what a quote
// shows (`offeredOutcome`) are decided from it.
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Option from "effect/Option"
import { RatePlanNotFound } from "../errors/NotFoundErrors.js"
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"
import { bookStay, type StayPlan, type StayRoomType } from "../booking/stayRequest.js"
import { type Offer, withAvailability } from "../quotes/offer.js"
import type { IsoDate } from "../quotes/dates.js"
import type { PricedNight, TraceEntry } from "../quotes/nightly.js"
import type { Quote } from "../quotes/quote.js"
import type { PricedLine } from "./pricing.js"
import type { PlannedChange } from "./plan.js"
import { type ChangeMoney, type ChangeSettlement, owedWithoutChange, settleChange } from "./settlement.js"

/** How a kept night's price was reached: it keeps the amount it was booked at (not today's price). */
export interface KeptTraceEntry {
  readonly step: "kept"
  readonly amount: string
  readonly detail: string
}

/** A night's trace in a change quote: the engine's steps for a night priced now, one `kept` entry otherwise. */
export type ChangeTraceEntry = TraceEntry | KeptTraceEntry

/** A night of the new stay as the quote shows it. */
export interface QuotedNight {
  readonly date: IsoDate
  readonly amount: Amount
  /** Empty when the trace was not asked for. */
  readonly trace: ReadonlyArray<ChangeTraceEntry>
  readonly kept: boolean
}

/** What the change would do with `available` rooms free on every night (its own nights counted as free). */
export interface ChangeOutcome<P extends StayPlan = StayPlan, R extends StayRoomType = StayRoomType> {
  readonly planned: PlannedChange<P, R>
  readonly currency: string
  /** None when the stay is unchanged (its lines stay as they are). */
  readonly offer: Option.Option<Offer<P, R>>
  readonly nights: ReadonlyArray<QuotedNight>
  readonly lines: ReadonlyArray<PricedLine>
  readonly previousTotal: Amount
  readonly total: Amount
  readonly settlement: ChangeSettlement
}

/** A night that keeps its booked amount: under `trace`, one entry saying so, at that amount. */
const keptNight = (planned: PlannedChange, date: IsoDate, amount: Amount): QuotedNight => ({
  date,
  amount,
  trace: planned.trace
    ? [{ step: "kept", amount: Money.format(amount, planned.reservation.currency), detail: "the amount this night was booked at" }]
    : [],
  kept: true
})

const unchangedNights = (planned: PlannedChange): ReadonlyArray<QuotedNight> =>
  planned.reservation.lines.flatMap((line) =>
    line.kind === "room" && line.night !== null ? [keptNight(planned, line.night, line.amount)] : []
  )

/** The new stay's nights: the engine's, except those that keep their booked amount. */
const quotedNights = (planned: PlannedChange, nights: ReadonlyArray<PricedNight>, kept: ReadonlySet<IsoDate>) =>
  nights.map((night): QuotedNight =>
    kept.has(night.date) ? keptNight(planned, night.date, night.amount) : { ...night, kept: false }
  )

/** What the money of the change at the new `total` is decided on: the policy in force before it. */
const moneyOf = (planned: PlannedChange, total: Amount): ChangeMoney => {
  const { reservation } = planned
  return {
    step: planned.step,
    total,
    paid: reservation.paid,
    tiers: reservation.policy,
    checkIn: reservation.terms.checkIn,
    timeZone: reservation.timeZone,
    now: planned.now,
    currency: reservation.currency
  }
}

/** The money of a change that re-prices the stay at the new `total`. */
export const settlementOf = (planned: PlannedChange, total: Amount): ChangeSettlement =>
  settleChange(moneyOf(planned, total))

export const outcomeOf = <P extends StayPlan, R extends StayRoomType>(
  planned: PlannedChange<P, R>,
  available: number
): ChangeOutcome<P, R> => {
  const { reservation } = planned
  const unchanged: ChangeOutcome<P, R> = {
    planned,
    currency: reservation.currency,
    offer: Option.none(),
    nights: unchangedNights(planned),
    lines: reservation.lines.map((line) => ({ ...line, serviceId: line.serviceId ?? undefined, quantity: line.quantity ?? undefined })),
    previousTotal: reservation.total,
    total: reservation.total,
    settlement: owedWithoutChange(moneyOf(planned, reservation.total))
  }
  if (Option.isNone(planned.restay)) return unchanged
  const { checked, kept } = planned.restay.value
  return Option.match(checked.offer, {
    onNone: () => unchanged,
    onSome: (priced) => {
      const counted = withAvailability(available)(priced)
      const quote = Option.getOrNull(counted.quote)
      const total = quote === null ? reservation.total : quote.total
      return {
        ...unchanged,
        currency: counted.currency,
        offer: Option.some(counted),
        nights: quotedNights(planned, counted.nights, new Set(kept.keys())),
        lines: quote === null ? [] : quote.lines,
        total,
        settlement: settlementOf(planned, total)
      }
    }
  })
}

/** A new stay whose plan this request cannot book at all is 404 `rate_plan_not_found`, for the quote as for the PATCH. */
export const offeredOutcome = <P extends StayPlan, R extends StayRoomType>(
  outcome: ChangeOutcome<P, R>
): Result.Result<ChangeOutcome<P, R>, RatePlanNotFound> =>
  Option.isSome(outcome.planned.restay) && Option.isNone(outcome.offer)
    ? Result.fail(new RatePlanNotFound({
      message: `Rate plan ${outcome.planned.target.ratePlanId} is not offered for this room type, stay or sales context`
    }))
    : Result.succeed(outcome)

/**
 * What the PATCH goes ahead with: `party_too_large`, then a plan this request cannot book (404
 * `rate_plan_not_found`), then no room free (409 `no_availability`), as for a hold (`Booking.bookStay`).
 */
export const bookedQuote = (outcome: ChangeOutcome, available: number) =>
  Effect.gen(function*() {
    const { planned } = outcome
    if (Option.isNone(planned.restay)) return Option.none<Quote>()
    yield* Effect.fromResult(planned.restay.value.checked.partyFits)
    yield* Effect.fromResult(offeredOutcome(outcome))
    return Option.some(yield* bookStay(planned.restay.value.checked, available))
  })
