// Offers: one plan priced for one stay on a room type, with what stops it being booked. `/rates` lists them and
// a hold books the SAME offer for its plan (add-ons included), so a hold without add-ons writes exactly the
// quoted lines.
import * as Option from "effect/Option"
import { type CancellationTerm, cancellationTerms, policyFor } from "../booking/cancellation/policy.js"
import type { SalesContext } from "../platform/ApiKey.js"
import {
  type ListedReason,
  listedReasons,
  visibilityOf,
  type VisibilitySource
} from "../rates/visibility/offerVisibility.js"
import { hidesPlan } from "../rates/visibility/visibility.js"
import { fitsOnFolio } from "../folios/charges.js"
import { nightsOf } from "./dates.js"
import { allocateGuests } from "./guests.js"
import type { AddOn, BlockPrice, CancellationTier, PricingProperty, RoomType } from "./model.js"
import { type PricedNight, priceNight } from "./nightly.js"
import type { Quote } from "./quote.js"
import { type PricedPlan, type StayPricing, type StayQuery, stayRequestFor, tryPriceStay } from "./stay.js"

/**
 * Why an offer cannot be booked: the visibility rule's reasons that do not hide the plan, `sold_out` (no room
 * free on some night), `currency_unavailable` (the plan's currency has no configured exchange rate and the
 * stay needs a base-currency amount converted, so it cannot be priced) and `price_out_of_range` (priced above
 * what one folio holds, which only a long chain of derivations reaches: a hold would be refused).
 */
export type OfferReason = "sold_out" | ListedReason | "currency_unavailable" | "price_out_of_range"

/** A plan as an offer shows it: priced by the engine, in its own currency. */
export interface OfferPlan extends PricedPlan {
  readonly currency: string
}

/** What offers are priced from: the property as loaded at one instant (a pricing snapshot is one). */
export interface OfferSource<R extends RoomType> extends VisibilitySource {
  /** The instant the cancellation terms are cut at. */
  readonly now: Date
  readonly property: { readonly timezone: string; readonly pricing: PricingProperty }
  readonly roomTypesById: ReadonlyMap<string, R>
}

/** `plan` and `roomType` keep the caller's richer shapes, so what presents an offer reads their names and codes. */
export interface Offer<P extends OfferPlan = OfferPlan, R extends RoomType = RoomType> {
  readonly plan: P
  readonly roomType: R
  readonly currency: string
  /** The priced stay; None when the stay cannot be priced (`currency_unavailable`). */
  readonly quote: Option.Option<Quote>
  /** The nights (always priced: a night never needs a conversion). */
  readonly nights: ReadonlyArray<PricedNight>
  readonly cancellationTerms: ReadonlyArray<CancellationTerm>
  /** Rooms of the plan's room type free on every night of the stay. */
  readonly available: number
  readonly reasons: ReadonlyArray<OfferReason>
  readonly bookable: boolean
}

/** Computes (or reuses) the cancellation terms of a policy. */
export type TermsOf = (tiers: ReadonlyArray<CancellationTier>) => ReadonlyArray<CancellationTerm>

/**
 * The cancellation terms of a stay's policies (concrete UTC deadlines, past ones dropped), memoised per policy:
 * plans sharing a policy (a derived plan without its own) share the terms, worked out once per request.
 */
export const termsFor = (
  source: { readonly now: Date; readonly property: { readonly timezone: string } },
  stay: { readonly checkIn: StayQuery["checkIn"] }
): TermsOf => {
  const cache = new Map<ReadonlyArray<CancellationTier>, ReadonlyArray<CancellationTerm>>()
  return (tiers) => {
    const cached = cache.get(tiers)
    if (cached !== undefined) return cached
    const terms = cancellationTerms(tiers, stay.checkIn, source.property.timezone, source.now)
    cache.set(tiers, terms)
    return terms
  }
}

const soldOut = (available: number): ReadonlyArray<OfferReason> => available < 1 ? ["sold_out"] : []

const priceOutOfRange = (quote: Option.Option<Quote>): ReadonlyArray<OfferReason> =>
  Option.exists(quote, (priced) => !fitsOnFolio(priced.total, priced.currency)) ? ["price_out_of_range"] : []

/**
 * The offer of `plan` for the stay on room type `roomTypeId`, or None when there is no such room type or the
 * visibility rule hides the plan (inactive, deleted, another room type, or not sold in this sales context:
 * `rate_plan_not_found`). `available` is the rooms free on every night; below 1 adds `sold_out`.
 */
export const offerFor = <P extends OfferPlan, R extends RoomType>(input: {
  readonly snapshot: OfferSource<R>
  readonly plan: P
  readonly roomTypeId: string
  readonly stay: StayQuery
  readonly salesContext: SalesContext
  readonly available: number
  /** Whether the nights carry their trace, and the request's memo. */
  readonly pricing: StayPricing
  readonly addOns?: ReadonlyArray<AddOn>
  /** Plans sharing a policy share the terms (see `termsFor`); one `termsFor` per offer without it. */
  readonly termsOf?: TermsOf
  /**
   * A pickup from a block: the plan's visibility rule is waived, and the block's price (when it has one)
   * replaces the plan's nightly price on the block's nights.
   */
  readonly pickup?: { readonly price: BlockPrice | null } | undefined
}): Option.Option<Offer<P, R>> => {
  const { snapshot, stay } = input
  const plan = input.pickup?.price == null ? input.plan : { ...input.plan, model: { ...input.plan.model, blockPrice: input.pickup.price } }
  const roomType = snapshot.roomTypesById.get(input.roomTypeId)
  if (roomType === undefined) return Option.none()
  const visibility = input.pickup === undefined
    ? visibilityOf(snapshot, plan, input.roomTypeId, roomType, stay, input.salesContext)
    : []
  if (visibility.some(hidesPlan)) return Option.none()

  const request = stayRequestFor(snapshot, plan, roomType, stay, input.pricing, input.addOns)
  const quote = Option.getSuccess(tryPriceStay(request))
  // An unpriceable stay still shows its nights: a night is priced in the plan's currency, never converted.
  const nights = Option.match(quote, {
    onSome: (q) => q.nights,
    onNone: () => {
      const guests = allocateGuests(stay.party, roomType)
      return nightsOf(stay.checkIn, stay.checkOut).map((date) =>
        priceNight(plan.model, date, guests, snapshot.property.pricing.ageBrackets, input.pricing)
      )
    }
  })
  const reasons: ReadonlyArray<OfferReason> = [
    ...soldOut(input.available),
    ...listedReasons(visibility),
    ...(Option.isNone(quote) ? ["currency_unavailable" as const] : []),
    ...priceOutOfRange(quote)
  ]
  const termsOf = input.termsOf ?? termsFor(snapshot, stay)
  return Option.some({
    plan,
    roomType,
    currency: plan.currency,
    quote,
    nights,
    cancellationTerms: termsOf(policyFor(plan.model, snapshot.property.pricing)),
    available: Math.max(0, input.available),
    reasons,
    bookable: reasons.length === 0
  })
}

/**
 * The offer with another count of free rooms (an offer priced before the rooms were counted under a lock):
 * `sold_out` is the only reason that depends on it, and the price does not.
 */
export const withAvailability = (available: number) =>
<P extends OfferPlan, R extends RoomType>(offer: Offer<P, R>): Offer<P, R> => {
  const reasons: ReadonlyArray<OfferReason> = [
    ...soldOut(available),
    ...offer.reasons.filter((reason) => reason !== "sold_out")
  ]
  return { ...offer, available: Math.max(0, available), reasons, bookable: reasons.length === 0 }
}
