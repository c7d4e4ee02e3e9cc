// A stay to price: the field rules every stay obeys and the request the engine prices for it. `/rates` and holds
// both go through here, so they cannot disagree on what a valid stay is or price a plan differently.
import * as Result from "effect/Result"
import { InvalidParameters } from "../errors/RequestErrors.js"
import type { Amount } from "../money/Money.js"
import { daysBetween, type IsoDate } from "./dates.js"
import { MissingExchangeRate } from "./fx.js"
import type { PricingMemo } from "./memo.js"
import type { AddOn, Inclusion, Party, PricingProperty, RatePlan, RoomType } from "./model.js"
import { priceStay, type Quote, type StayRequest } from "./quote.js"

/**
 * The longest stay, in nights. Availability relies on it (a stay covering a night arrived at most this many
 * days before it), so the database holds the same bound.
 */
export const maxStayNights = 30

export interface StayQuery {
  readonly checkIn: IsoDate
  readonly checkOut: IsoDate
  readonly party: Party
  /** Checked only against plans that require a code. */
  readonly promoCode?: string | null | undefined
}

/**
 * The field rules of a stay: check-out after check-in, at most `maxStayNights` nights (both on `check_out`,
 * the field to change), check-in not before the property's today (`check_in`). The first broken rule wins.
 */
export const validateStay = (stay: StayQuery, today: IsoDate): Result.Result<void, InvalidParameters> => {
  const nights = daysBetween(stay.checkIn, stay.checkOut)
  if (nights < 1) {
    return Result.fail(new InvalidParameters({ message: "check_out must be after check_in", param: "check_out" }))
  }
  if (nights > maxStayNights) {
    return Result.fail(
      new InvalidParameters({ message: `A stay may be at most ${maxStayNights} nights`, param: "check_out" })
    )
  }
  if (stay.checkIn < today) {
    return Result.fail(new InvalidParameters({
      message: `check_in must not be before the property's today (${today})`,
      param: "check_in"
    }))
  }
  return Result.void
}

/** How one request prices its stays. */
export interface StayPricing {
  /** Build each night's trace: `/rates` and the change quote under `include=trace`; never a hold (it writes the lines, not the trace). */
  readonly trace: boolean
  /** Made once per request and shared by its offers (see `PricingMemo`). */
  readonly memo?: PricingMemo | undefined
  /** Nights keeping their booked amount (a change of a reservation, see `StayRequest.keptNights`). */
  readonly keptNights?: ReadonlyMap<IsoDate, Amount> | undefined
}

/** A plan as the engine prices it: its model (with its loaded parents) and its own inclusions. */
export interface PricedPlan {
  readonly model: RatePlan
  readonly inclusions: ReadonlyArray<Inclusion>
}

/** The property's side of a stay's price (a loaded pricing snapshot is one). */
export interface PricingSource {
  readonly property: { readonly pricing: PricingProperty }
}

/** What the engine prices for a plan and a stay: the one place quotes and holds build it. */
export const stayRequestFor = (
  source: PricingSource,
  plan: PricedPlan,
  roomType: RoomType,
  stay: StayQuery,
  pricing: StayPricing,
  addOns: ReadonlyArray<AddOn> = []
): StayRequest => ({
  plan: plan.model,
  roomType,
  property: source.property.pricing,
  checkIn: stay.checkIn,
  checkOut: stay.checkOut,
  party: stay.party,
  addOns,
  inclusions: plan.inclusions,
  trace: pricing.trace,
  memo: pricing.memo,
  keptNights: pricing.keptNights
})

/**
 * `priceStay`, with a missing exchange rate as a value: an offer lists it as `currency_unavailable` instead of
 * failing the whole request. Any other throw is a defect and is rethrown.
 */
export const tryPriceStay = (request: StayRequest): Result.Result<Quote, MissingExchangeRate> => {
  try {
    return Result.succeed(priceStay(request))
  } catch (error) {
    if (error instanceof MissingExchangeRate) return Result.fail(error)
    throw error
  }
}
