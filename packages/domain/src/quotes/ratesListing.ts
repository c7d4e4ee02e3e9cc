// `GET /rates` as decisions around the one query it needs (the rooms free per room type): which plans a request
// prices, and which of their offers it lists, in what order.
import * as Result from "effect/Result"
import * as Option from "effect/Option"
import { RatePlanNotFound, RoomTypeNotFound } from "../errors/NotFoundErrors.js"
import type { SalesContext } from "../platform/ApiKey.js"
import { makePricingMemo } from "./memo.js"
import type { RoomType } from "./model.js"
import { type Offer, offerFor, type OfferPlan, type OfferSource, termsFor } from "./offer.js"
import type { StayQuery } from "./stay.js"

/** A plan as `/rates` picks it: by id, and offered on its own room type unless one is requested. */
export interface ListedPlan extends OfferPlan {
  readonly id: string
  readonly roomTypeId: string
}

/** A room type as `/rates` orders offers: by its place in the catalogue. */
export interface ListedRoomType extends RoomType {
  readonly id: string
}

/** The property's plans and room types (a loaded pricing snapshot carries them). */
export interface RatesCatalogue<P extends ListedPlan, R extends ListedRoomType> extends OfferSource<R> {
  /** In catalogue order: the order offers are listed in. */
  readonly roomTypes: ReadonlyArray<R>
  /** In creation order: the order of a room type's offers. */
  readonly plans: ReadonlyArray<P>
  readonly plansById: ReadonlyMap<string, P>
}

export interface RatesQuery extends StayQuery {
  readonly roomTypeId?: string | null | undefined
  readonly ratePlanId?: string | null | undefined
  /** Lists unbookable offers too, with their reasons. */
  readonly includeUnavailable?: boolean | undefined
  /** Each night's trace (default true). */
  readonly trace?: boolean | undefined
}

export interface RatesScope<P extends ListedPlan> {
  /** The requested room type; null when each plan is offered on its own. */
  readonly roomTypeId: string | null
  /** The requested plan; null when every plan is a candidate. */
  readonly onePlan: P | null
  /** The plans to price, in creation order. */
  readonly candidates: ReadonlyArray<P>
}

/**
 * The plans a request prices: the requested plan alone (even on another room type: the visibility rule then
 * hides it), else every plan of the requested room type, else every plan. A requested id the property does
 * not have is 404, the room type's first.
 */
export const ratesScope = <P extends ListedPlan, R extends ListedRoomType>(
  catalogue: RatesCatalogue<P, R>,
  query: RatesQuery
): Result.Result<RatesScope<P>, RoomTypeNotFound | RatePlanNotFound> => {
  const roomTypeId = query.roomTypeId ?? null
  if (roomTypeId !== null && !catalogue.roomTypesById.has(roomTypeId)) {
    return Result.fail(new RoomTypeNotFound({ message: `No room type ${roomTypeId}` }))
  }
  const ratePlanId = query.ratePlanId ?? null
  const onePlan = ratePlanId === null ? null : catalogue.plansById.get(ratePlanId)
  if (onePlan === undefined) return Result.fail(new RatePlanNotFound({ message: `No rate plan ${ratePlanId}` }))
  const candidates = onePlan !== null
    ? [onePlan]
    : catalogue.plans.filter((plan) => roomTypeId === null || plan.roomTypeId === roomTypeId)
  return Result.succeed({ roomTypeId, onePlan, candidates })
}

/**
 * The offers a request lists: one per candidate the visibility rule does not hide, only bookable ones unless
 * `includeUnavailable`, in room type (catalogue) order then plan order. `available` is the rooms free on every
 * night per room type (a room type missing from it has none free). A requested plan that the visibility rule
 * hides from this request is 404, as a missing one is.
 */
export const ratesListing = <P extends ListedPlan, R extends ListedRoomType>(input: {
  readonly catalogue: RatesCatalogue<P, R>
  readonly scope: RatesScope<P>
  readonly query: RatesQuery
  readonly salesContext: SalesContext
  readonly available: ReadonlyMap<string, number>
}): Result.Result<ReadonlyArray<Offer<P, R>>, RatePlanNotFound> => {
  const { catalogue, query, scope } = input
  const termsOf = termsFor(catalogue, query)
  // One memo for the request: a parent plan's nights are priced once for all the plans derived from it.
  const pricing = { trace: query.trace ?? true, memo: makePricingMemo() }
  const offers = scope.candidates.flatMap((plan) => {
    // Each plan is offered on its own room type; a requested room type hides plans of another.
    const roomTypeId = scope.roomTypeId ?? plan.roomTypeId
    return Option.toArray(offerFor({
      snapshot: catalogue,
      plan,
      roomTypeId,
      stay: query,
      salesContext: input.salesContext,
      available: input.available.get(roomTypeId) ?? 0,
      pricing,
      termsOf
    }))
  })
  if (scope.onePlan !== null && offers.length === 0) {
    return Result.fail(new RatePlanNotFound({
      message: `Rate plan ${scope.onePlan.id} is not offered for this request`
    }))
  }
  const order = new Map(catalogue.roomTypes.map((roomType, i) => [roomType.id, i]))
  return Result.succeed(
    offers
      .filter((offer) => offer.bookable || query.includeUnavailable === true)
      .map((offer, i) => ({ offer, i }))
      .sort((a, b) => (order.get(a.offer.roomType.id) ?? 0) - (order.get(b.offer.roomType.id) ?? 0) || a.i - b.i)
      .map(({ offer }) => offer)
  )
}
