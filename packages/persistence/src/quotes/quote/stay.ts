// A stay to price: its field rules and the request the engine prices, the same for `/rates` and holds.
import { InvalidParameters, Pricing } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { PricingSnapshot, SnapshotPlan, SnapshotRoomType } from "../pricingInputs/snapshot.js"

/** The longest stay, in nights. */
export const maxStayNights = 30

export interface StayQuery {
  readonly checkIn: Pricing.IsoDate
  readonly checkOut: Pricing.IsoDate
  readonly party: Pricing.Party
  /** Checked only against plans that require a code. */
  readonly promoCode?: string | null | undefined
}

/**
 * The field rules of a stay shared by `/rates` and holds: check-out after check-in, at most 30 nights (both
 * on `check_out`), check-in not before the property's today (`check_in`).
 */
export const validateStay = (stay: StayQuery, today: Pricing.IsoDate): Effect.Effect<void, InvalidParameters> => {
  const nights = Pricing.daysBetween(stay.checkIn, stay.checkOut)
  if (nights < 1) return Effect.fail(new InvalidParameters({ message: "check_out must be after check_in", param: "check_out" }))
  if (nights > maxStayNights) {
    return Effect.fail(new InvalidParameters({ message: `A stay may be at most ${maxStayNights} nights`, param: "check_out" }))
  }
  if (stay.checkIn < today) {
    return Effect.fail(
      new InvalidParameters({ message: `check_in must not be before the property's today (${today})`, param: "check_in" })
    )
  }
  return Effect.void
}

/** How one request prices its stays. */
export interface StayPricing {
  /** Build each night's trace: `/rates` unless `trace=false`; never a hold (it writes the lines, not the trace). */
  readonly trace: boolean
  /** Made once per request and shared by its offers (see `Pricing.PricingMemo`). */
  readonly memo?: Pricing.PricingMemo | undefined
}

/** What the engine prices for a plan and a stay: the one place quotes and holds build it. */
export const stayRequestFor = (
  snapshot: PricingSnapshot,
  plan: SnapshotPlan,
  roomType: SnapshotRoomType,
  stay: StayQuery,
  pricing: StayPricing,
  addOns: ReadonlyArray<Pricing.AddOn> = []
): Pricing.StayRequest => ({
  plan: plan.model,
  roomType,
  property: snapshot.property.pricing,
  checkIn: stay.checkIn,
  checkOut: stay.checkOut,
  party: stay.party,
  addOns,
  inclusions: plan.inclusions,
  trace: pricing.trace,
  memo: pricing.memo
})

/** `Pricing.priceStay`, with a missing exchange rate as a value instead of a thrown defect. */
export const tryPriceStay = (request: Pricing.StayRequest): Either.Either<Pricing.Quote, Pricing.MissingExchangeRate> => {
  try {
    return Either.right(Pricing.priceStay(request))
  } catch (error) {
    if (error instanceof Pricing.MissingExchangeRate) return Either.left(error)
    throw error
  }
}
