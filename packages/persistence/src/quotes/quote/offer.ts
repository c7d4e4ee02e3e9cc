// Offers: one plan priced for one stay on a room type, with what stops it being booked. `/rates` lists them and
// the booking flow builds the SAME offer for the plan it holds (add-ons included), so a hold without add-ons
// writes exactly the quoted lines.
import type { SalesContext } from "@hotel/domain"
import { Cancellation, Pricing, Visibility } from "@hotel/domain"
import * as Option from "effect/Option"
import type { PricingSnapshot, SnapshotPlan, SnapshotRoomType } from "../pricingInputs/snapshot.js"
import { type StayPricing, type StayQuery, stayRequestFor, tryPriceStay } from "./stay.js"

/**
 * Why an offer cannot be booked: the visibility rule's reasons that do not hide the plan, `sold_out` (no room
 * free on some night) and `currency_unavailable` (the plan's currency has no configured exchange rate and the
 * stay needs a base-currency amount converted, so it cannot be priced).
 */
export type OfferReason =
  | "sold_out"
  | Exclude<Visibility.VisibilityReason, "rate_plan_inactive" | "sales_context">
  | "currency_unavailable"

export interface Offer {
  readonly plan: SnapshotPlan
  readonly roomType: SnapshotRoomType
  readonly currency: string
  /** The priced stay; None when the stay cannot be priced (`currency_unavailable`). */
  readonly quote: Option.Option<Pricing.Quote>
  /** The nights (always priced: a night never needs a conversion). */
  readonly nights: ReadonlyArray<Pricing.PricedNight>
  readonly cancellationTerms: ReadonlyArray<Cancellation.CancellationTerm>
  /** Rooms of the plan's room type free on every night of the stay. */
  readonly available: number
  readonly reasons: ReadonlyArray<OfferReason>
  readonly bookable: boolean
}

/** The visibility rule for a plan, a room type and a stay, at the snapshot's today. */
export const visibilityOf = (
  snapshot: PricingSnapshot,
  plan: SnapshotPlan,
  roomTypeId: string,
  roomType: Pricing.RoomType,
  stay: StayQuery,
  salesContext: SalesContext
): ReadonlyArray<Visibility.VisibilityReason> =>
  Visibility.planVisibility({
    plan: plan.model,
    roomTypeId,
    roomType,
    party: stay.party,
    checkIn: stay.checkIn,
    checkOut: stay.checkOut,
    today: snapshot.today,
    salesContext,
    promoCode: stay.promoCode ?? null,
    promoCodes: snapshot.promoCodes
  })

/** The cancellation terms of a stay's policy (concrete UTC deadlines, past ones dropped), memoised per policy. */
export const termsFor = (snapshot: PricingSnapshot, stay: StayQuery) => {
  const cache = new Map<ReadonlyArray<Pricing.CancellationTier>, ReadonlyArray<Cancellation.CancellationTerm>>()
  return (tiers: ReadonlyArray<Pricing.CancellationTier>): ReadonlyArray<Cancellation.CancellationTerm> => {
    const cached = cache.get(tiers)
    if (cached !== undefined) return cached
    const terms = Cancellation.cancellationTerms(tiers, stay.checkIn, snapshot.property.timezone, snapshot.now)
    cache.set(tiers, terms)
    return terms
  }
}

/**
 * The offer of `plan` for the stay on room type `roomTypeId`, or None when the visibility rule hides the plan
 * (inactive, deleted, another room type, or not sold in this sales context: `rate_plan_not_found`).
 * `available` is the rooms free on every night (from `Inventory`); 0 adds `sold_out`.
 */
export const offerFor = (input: {
  readonly snapshot: PricingSnapshot
  readonly plan: SnapshotPlan
  readonly roomTypeId: string
  readonly stay: StayQuery
  readonly salesContext: SalesContext
  readonly available: number
  /** Whether the nights carry their trace, and the request's memo. */
  readonly pricing: StayPricing
  readonly addOns?: ReadonlyArray<Pricing.AddOn>
  /** Computes (or reuses) the cancellation terms of a policy; plans sharing a policy share the terms. */
  readonly termsOf?: (tiers: ReadonlyArray<Pricing.CancellationTier>) => ReadonlyArray<Cancellation.CancellationTerm>
}): Option.Option<Offer> => {
  const { plan, snapshot, stay } = input
  const roomType = snapshot.roomTypesById.get(input.roomTypeId)
  if (roomType === undefined) return Option.none()
  const visibility = visibilityOf(snapshot, plan, input.roomTypeId, roomType, stay, input.salesContext)
  if (visibility.some(Visibility.hidesPlan)) return Option.none()

  const priced = tryPriceStay(stayRequestFor(snapshot, plan, roomType, stay, input.pricing, input.addOns))
  const quote = Option.getRight(priced)
  const nights = Option.match(quote, {
    onSome: (q) => q.nights,
    onNone: () => {
      const guests = Pricing.allocateGuests(stay.party, roomType)
      return Pricing.nightsOf(stay.checkIn, stay.checkOut).map((date) =>
        Pricing.priceNight(plan.model, date, guests, snapshot.property.pricing.ageBrackets, input.pricing)
      )
    }
  })
  const reasons: Array<OfferReason> = [
    ...(input.available < 1 ? ["sold_out" as const] : []),
    ...visibility.filter((reason): reason is Exclude<typeof reason, "rate_plan_inactive" | "sales_context"> =>
      !Visibility.hidesPlan(reason)
    ),
    ...(Option.isNone(quote) ? ["currency_unavailable" as const] : [])
  ]
  const tiers = Cancellation.policyFor(plan.model, snapshot.property.pricing)
  const termsOf = input.termsOf ?? termsFor(snapshot, stay)
  return Option.some({
    plan,
    roomType,
    currency: plan.currency,
    quote,
    nights,
    cancellationTerms: termsOf(tiers),
    available: Math.max(0, input.available),
    reasons,
    bookable: reasons.length === 0
  })
}

/**
 * The offer with another count of free rooms (an offer priced before the rooms were counted): `sold_out` is
 * the only reason that depends on it, and the price does not.
 */
export const withAvailability = (available: number) => (offer: Offer): Offer => {
  const reasons: ReadonlyArray<OfferReason> = [
    ...(available < 1 ? ["sold_out" as const] : []),
    ...offer.reasons.filter((reason) => reason !== "sold_out")
  ]
  return { ...offer, available: Math.max(0, available), reasons, bookable: reasons.length === 0 }
}
