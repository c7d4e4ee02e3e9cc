import type { SalesContext } from "@hotel/domain"
import { Cancellation, InvalidParameters, Pricing, RatePlanNotFound, RoomTypeNotFound, Visibility } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { Inventory } from "./Inventory.js"
import { type PricingSnapshot, PricingInputs, type SnapshotPlan, type SnapshotRoomType } from "./PricingInputs.js"

// Offers: one plan priced for one stay, with what stops it being booked. `GET /rates` lists them and the
// booking flow builds the SAME offer for the plan it holds (add-ons included), so a hold without add-ons
// writes exactly the quoted lines (decisions 3): both go through `stayRequestFor` + `priceStay` here.

/** The longest stay, in nights (interface 8). */
export const maxStayNights = 30

export interface StayQuery {
  readonly checkIn: Pricing.IsoDate
  readonly checkOut: Pricing.IsoDate
  readonly party: Pricing.Party
  /** Checked only against plans that require a code (decisions 4). */
  readonly promoCode?: string | null | undefined
}

export interface RatesQuery extends StayQuery {
  readonly roomTypeId?: string | null | undefined
  readonly ratePlanId?: string | null | undefined
  /** Lists unbookable offers too, with their reasons. */
  readonly includeUnavailable?: boolean | undefined
}

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

// ---------------------------------------------------------------------------------------------------------
// Pure building blocks (shared with the booking flow)

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

/** What the engine prices for a plan and a stay: the one place quotes and holds build it. */
export const stayRequestFor = (
  snapshot: PricingSnapshot,
  plan: SnapshotPlan,
  roomType: SnapshotRoomType,
  stay: StayQuery,
  addOns: ReadonlyArray<Pricing.AddOn> = []
): Pricing.StayRequest => ({
  plan: plan.model,
  roomType,
  property: snapshot.property.pricing,
  checkIn: stay.checkIn,
  checkOut: stay.checkOut,
  party: stay.party,
  addOns,
  inclusions: plan.inclusions
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
  readonly addOns?: ReadonlyArray<Pricing.AddOn>
  /** Computes (or reuses) the cancellation terms of a policy; plans sharing a policy share the terms. */
  readonly termsOf?: (tiers: ReadonlyArray<Pricing.CancellationTier>) => ReadonlyArray<Cancellation.CancellationTerm>
}): Option.Option<Offer> => {
  const { plan, snapshot, stay } = input
  const roomType = snapshot.roomTypesById.get(input.roomTypeId)
  if (roomType === undefined) return Option.none()
  const visibility = visibilityOf(snapshot, plan, input.roomTypeId, roomType, stay, input.salesContext)
  if (visibility.some(Visibility.hidesPlan)) return Option.none()

  const priced = tryPriceStay(stayRequestFor(snapshot, plan, roomType, stay, input.addOns))
  const quote = Option.getRight(priced)
  const nights = Option.match(quote, {
    onSome: (q) => q.nights,
    onNone: () => {
      const guests = Pricing.allocateGuests(stay.party, roomType)
      return Pricing.nightsOf(stay.checkIn, stay.checkOut).map((date) =>
        Pricing.priceNight(plan.model, date, guests, snapshot.property.pricing.ageBrackets)
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

// ---------------------------------------------------------------------------------------------------------
// The service

export class QuoteService extends Effect.Service<QuoteService>()("@hotel/persistence/QuoteService", {
  effect: Effect.gen(function*() {
    const inputs = yield* PricingInputs
    const inventory = yield* Inventory

    /**
     * `GET /rates` (decisions 3.1): one offer per visible plan (and its room type), in room type then plan
     * creation order; only bookable ones unless `includeUnavailable`. A fixed number of queries: the
     * snapshot and one inventory query, whatever the nights or plans.
     */
    const rates = (
      propertyId: string,
      query: RatesQuery,
      salesContext: SalesContext
    ): Effect.Effect<ReadonlyArray<Offer>, InvalidParameters | RoomTypeNotFound | RatePlanNotFound> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const ratePlanId = query.ratePlanId ?? null
        // A named plan needs only its own chain loaded (the same number of queries, less data).
        const loaded = ratePlanId === null
          ? inputs.load(propertyId, now)
          : inputs.loadForPlan(propertyId, ratePlanId, now)
        const snapshot = yield* loaded.pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.dieMessage(`property ${propertyId} of a valid key is missing`),
            onSome: Effect.succeed
          }))
        )
        yield* validateStay(query, snapshot.today)
        const roomTypeId = query.roomTypeId ?? null
        if (roomTypeId !== null && !snapshot.roomTypesById.has(roomTypeId)) {
          return yield* new RoomTypeNotFound({ message: `No room type ${roomTypeId}` })
        }
        const onePlan = ratePlanId === null ? null : snapshot.plansById.get(ratePlanId)
        if (onePlan === undefined) return yield* new RatePlanNotFound({ message: `No rate plan ${ratePlanId}` })

        const candidates = (onePlan === null ? snapshot.plans : [onePlan]).filter((plan) =>
          roomTypeId === null || plan.roomTypeId === roomTypeId || plan === onePlan
        )
        const stock = yield* inventory.available(propertyId, {
          roomTypeId,
          from: query.checkIn,
          to: query.checkOut,
          now
        })
        const free = new Map(stock.map((entry) => [entry.roomTypeId, entry.available]))
        const termsOf = termsFor(snapshot, query)
        const offers = candidates.flatMap((plan) =>
          Option.toArray(offerFor({
            snapshot,
            plan,
            // Each plan is offered on its own room type; a requested room type hides plans of another.
            roomTypeId: roomTypeId ?? plan.roomTypeId,
            stay: query,
            salesContext,
            available: free.get(roomTypeId ?? plan.roomTypeId) ?? 0,
            termsOf
          }))
        )
        if (onePlan !== null && offers.length === 0) {
          return yield* new RatePlanNotFound({ message: `Rate plan ${onePlan.id} is not offered for this request` })
        }
        const order = new Map(snapshot.roomTypes.map((roomType, i) => [roomType.id, i]))
        return offers
          .filter((offer) => offer.bookable || query.includeUnavailable === true)
          .map((offer, i) => ({ offer, i }))
          .sort((a, b) => (order.get(a.offer.roomType.id) ?? 0) - (order.get(b.offer.roomType.id) ?? 0) || a.i - b.i)
          .map(({ offer }) => offer)
      }).pipe(Effect.withSpan("QuoteService.rates"))

    return { rates } as const
  }),
  dependencies: [PricingInputs.Default, Inventory.Default]
}) {}
