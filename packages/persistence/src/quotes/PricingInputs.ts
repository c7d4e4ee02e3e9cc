import * as SqlClient from "@effect/sql/SqlClient"
import { isUuid } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { serviceRows } from "../catalog/CatalogRepository.js"
import { makeSnapshot } from "./pricingInputs/assemble.js"
import * as Queries from "./pricingInputs/queries.js"
import type { LoadOptions, PricingSnapshot } from "./pricingInputs/snapshot.js"

// Everything the pricing engine and the visibility rule need for one property, loaded in a FIXED number of
// queries (7, whatever the number of plans, intervals, codes or nights): the property with its currencies,
// age brackets and taxes; room types; the live rate plans and every ancestor they derive from (one recursive
// query; chains are built in memory); their intervals; their inclusions; services; promo codes with live
// redemption counts. It only uses `SqlClient`, so inside `sql.withTransaction` it reads in that transaction.
// The pieces live in ./pricingInputs/: the snapshot's types, the rows, the pure mappers and chains, the queries.

export * from "./pricingInputs/assemble.js"
export * from "./pricingInputs/chains.js"
export * from "./pricingInputs/mappers.js"
export type * from "./pricingInputs/rows.js"
export * from "./pricingInputs/snapshot.js"

export class PricingInputs extends Effect.Service<PricingInputs>()("@hotel/persistence/PricingInputs", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const loadWith = (propertyId: string, onlyPlanId: string | null, now: Date, options: LoadOptions) =>
      Effect.gen(function*() {
        if (!isUuid(propertyId)) return Option.none<PricingSnapshot>()
        const [property] = yield* Queries.propertyRow(sql, propertyId)
        if (property === undefined) return Option.none<PricingSnapshot>()
        const guestId = options.guestId != null && isUuid(options.guestId) ? options.guestId : null
        const roomTypes = yield* Queries.roomTypeRows(sql, propertyId)
        const plans = onlyPlanId !== null && !isUuid(onlyPlanId)
          ? []
          : yield* Queries.planRows(sql, propertyId, onlyPlanId)
        const planIds = plans.map((plan) => plan.id)
        const intervals = yield* Queries.intervalRows(sql, propertyId, planIds)
        const inclusions = yield* Queries.inclusionRows(sql, planIds)
        const services = yield* serviceRows(sql, propertyId)
        const promoCodes = yield* Queries.promoCodeRows(sql, propertyId, planIds, now, guestId)
        return Option.some(makeSnapshot({ now, property, roomTypes, plans, intervals, inclusions, services, promoCodes }))
      }).pipe(Effect.orDie)

    /**
     * Everything for pricing any plan of the property at `now` (from `Clock`). None when the property does not
     * exist. Runs in the caller's transaction when inside `sql.withTransaction`.
     */
    const load = (propertyId: string, now: Date, options: LoadOptions = {}) =>
      loadWith(propertyId, null, now, options).pipe(Effect.withSpan("PricingInputs.load"))

    /**
     * The same snapshot restricted to one live plan and its ancestors (`plans` holds that plan and its live
     * ancestors; `plansById.get(planId)` is None when it is not a live plan of the property). Same number of
     * queries, less data. For the booking flow: price and check one plan.
     */
    const loadForPlan = (propertyId: string, planId: string, now: Date, options: LoadOptions = {}) =>
      loadWith(propertyId, planId, now, options).pipe(Effect.withSpan("PricingInputs.loadForPlan"))

    /**
     * Locks (FOR UPDATE, in id order) the live promo codes of a plan and its ancestors, so that a booking
     * transaction that then loads the snapshot sees redemption counts no concurrent booking can overtake
     * (the promo-code caps). Call it inside `sql.withTransaction`, before `loadForPlan`.
     */
    const lockPromoCodes = (propertyId: string, planId: string) =>
      (isUuid(propertyId) && isUuid(planId)
        ? Queries.lockPromoCodeRows(sql, propertyId, planId).pipe(Effect.asVoid)
        : Effect.void).pipe(Effect.orDie, Effect.withSpan("PricingInputs.lockPromoCodes"))

    return { load, loadForPlan, lockPromoCodes } as const
  })
}) {}
