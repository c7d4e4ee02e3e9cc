import type { SalesContext } from "@hotel/domain"
import { type InvalidParameters, Pricing, RatePlanNotFound, RoomTypeNotFound } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Inventory } from "./Inventory.js"
import { PricingInputs } from "./PricingInputs.js"
import { type Offer, offerFor, termsFor } from "./quote/offer.js"
import { type StayQuery, validateStay } from "./quote/stay.js"
import { keyPropertyExists } from "../platform/KeyProperty.js"
import { withSpan } from "../database/Span.js"

// Quotes (`GET /rates`): every visible plan priced for a stay. The offer of one plan and the stay's rules are
// shared with the booking flow (./quote/), so `/rates` and holds cannot price a plan differently.

export { type Offer, offerFor, type OfferReason, termsFor, visibilityOf, withAvailability } from "./quote/offer.js"
export {
  maxStayNights,
  type StayPricing,
  type StayQuery,
  stayRequestFor,
  tryPriceStay,
  validateStay
} from "./quote/stay.js"

export interface RatesQuery extends StayQuery {
  readonly roomTypeId?: string | null | undefined
  readonly ratePlanId?: string | null | undefined
  /** Lists unbookable offers too, with their reasons. */
  readonly includeUnavailable?: boolean | undefined
  /** Each night's trace (default true); without it the engine builds none. */
  readonly trace?: boolean | undefined
}

export class Quotes extends Effect.Service<Quotes>()("@hotel/persistence/quotes/Quotes", {
  effect: Effect.gen(function*() {
    const inputs = yield* PricingInputs
    const inventory = yield* Inventory

    /**
     * `GET /rates`: one offer per visible plan (and its room type), in room type then plan
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
        const snapshot = yield* loaded.pipe(Effect.flatMap(keyPropertyExists(propertyId)))
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
        // One memo for the request: a parent plan's nights are priced once for all the plans derived from it.
        const pricing = { trace: query.trace ?? true, memo: Pricing.makePricingMemo() }
        const offers = candidates.flatMap((plan) =>
          Option.toArray(offerFor({
            snapshot,
            plan,
            // Each plan is offered on its own room type; a requested room type hides plans of another.
            roomTypeId: roomTypeId ?? plan.roomTypeId,
            stay: query,
            salesContext,
            available: free.get(roomTypeId ?? plan.roomTypeId) ?? 0,
            pricing,
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
      }).pipe(withSpan("Quotes.rates"))

    return { rates } as const
  }),
  dependencies: [PricingInputs.Default, Inventory.Default]
}) {}
