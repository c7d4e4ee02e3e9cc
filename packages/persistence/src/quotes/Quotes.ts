import type { InvalidParameters, RatePlanNotFound, RoomTypeNotFound, SalesContext } from "@hotel/domain"
import { Pricing } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { Inventory } from "../inventory/Inventory.js"
import { PricingInputs, type SnapshotPlan, type SnapshotRoomType, staySpan } from "./PricingInputs.js"
import { keyPropertyExists } from "../platform/KeyProperty.js"
import { withSpan } from "../database/Span.js"

// Quotes (`GET /rates`): every visible plan priced for a stay. Which plans, their offers and the listing are the
// domain's (`Pricing.ratesScope`, `offerFor`, `ratesListing`), shared with the booking flow, so `/rates` and
// holds cannot price a plan differently; this service loads the snapshot and counts the free rooms between them.

/** An offer of the snapshot's plans and room types (a hold prices the same offer under its locks). */
export type Offer = Pricing.Offer<SnapshotPlan, SnapshotRoomType>

export type RatesQuery = Pricing.RatesQuery

export class Quotes extends Context.Service<Quotes>()("@hotel/persistence/quotes/Quotes", {
  make: Effect.gen(function*() {
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
          ? inputs.load(propertyId, now, staySpan(query))
          : inputs.loadForPlan(propertyId, ratePlanId, now, staySpan(query))
        const snapshot = yield* loaded.pipe(Effect.flatMap(keyPropertyExists(propertyId)))
        yield* Effect.fromResult(Pricing.validateStay(query, snapshot.today))
        const scope = yield* Effect.fromResult(Pricing.ratesScope(snapshot, query))
        const stock = yield* inventory.available(propertyId, {
          roomTypeId: scope.roomTypeId,
          from: query.checkIn,
          to: query.checkOut,
          now
        })
        return yield* Effect.fromResult(Pricing.ratesListing({
          catalogue: snapshot,
          scope,
          query,
          salesContext,
          available: new Map(stock.map((entry) => [entry.roomTypeId, entry.available]))
        }))
      }).pipe(withSpan("Quotes.rates"))

    return { rates } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([PricingInputs.layer, Inventory.layer]))
}
