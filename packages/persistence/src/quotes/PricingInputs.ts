import * as SqlClient from "effect/sql/SqlClient"
import { isUuid } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { makeSnapshot } from "./pricingInputs/assemble.js"
import * as Queries from "./pricingInputs/queries.js"
import type { LoadOptions, NightSpan, PricingSnapshot } from "./pricingInputs/snapshot.js"
import { withSpan } from "../database/Span.js"

// Everything the pricing engine and the visibility rule need for one property, loaded in ONE statement
// whatever the number of plans, intervals, codes or nights: the property with its currencies, age brackets and
// taxes; room types; the live rate plans and every ancestor they derive from (a recursive CTE; chains are built
// in memory); their intervals; their per-night overrides on the nights asked for; their inclusions; services;
// promo codes with live redemption counts. One statement is one MVCC snapshot: a stay priced from it sees a
// concurrent `POST /ari` whole or not at all. It only uses `SqlClient`, so inside `sql.withTransaction` it reads
// in that transaction.
// The pieces live in ./pricingInputs/: the snapshot's types, the rows, the pure mappers and chains, the queries.

export * from "./pricingInputs/assemble.js"
export * from "./pricingInputs/chains.js"
export * from "./pricingInputs/mappers.js"
export type * from "./pricingInputs/rows.js"
export * from "./pricingInputs/snapshot.js"

/** A uuid no row has (ids are generated v4 uuids): the seed of a chain that must select nothing. */
const nilUuid = "00000000-0000-0000-0000-000000000000"

export class PricingInputs extends Context.Service<PricingInputs>()("@hotel/persistence/quotes/PricingInputs", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const loadWith = (propertyId: string, onlyPlanId: string | null, now: Date, span: NightSpan, options: LoadOptions) =>
      Effect.gen(function*() {
        if (!isUuid(propertyId)) return Option.none<PricingSnapshot>()
        const guestGiven = options.guestId != null
        const guestId = guestGiven && isUuid(options.guestId) ? options.guestId : null
        // An id that is not a uuid names no plan: seed the chain with none rather than send it as a uuid.
        const seedPlan = onlyPlanId !== null && !isUuid(onlyPlanId) ? nilUuid : onlyPlanId
        const excluded = options.excludeReservationId != null && isUuid(options.excludeReservationId)
          ? options.excludeReservationId
          : null
        const [row] = yield* Queries.snapshotRow(sql, propertyId, seedPlan, now, guestId, span, excluded)
        if (row === undefined || row.property === null) return Option.none<PricingSnapshot>()
        const { inclusions, intervals, plans, property, services } = row
        return Option.some(makeSnapshot({
          now,
          property,
          roomTypes: row.room_types,
          plans,
          intervals,
          inclusions,
          services,
          promoCodes: row.promo_codes,
          nights: row.nights,
          // A guest id that is not a uuid names no guest.
          guestFound: guestGiven ? row.guest_found === true : undefined
        }))
      }).pipe(Effect.orDie)

    /**
     * Everything for pricing any plan of the property at `now` (from `Clock`), with the plans' overrides on the
     * nights of `span`. None when the property does not exist. Runs in the caller's transaction when inside
     * `sql.withTransaction`.
     */
    const load = (propertyId: string, now: Date, span: NightSpan, options: LoadOptions = {}) =>
      loadWith(propertyId, null, now, span, options).pipe(withSpan("PricingInputs.load"))

    /**
     * The same snapshot restricted to one live plan and its ancestors (`plans` holds that plan and its live
     * ancestors; `plansById.get(planId)` is None when it is not a live plan of the property). Same number of
     * queries, less data. For the booking flow: price and check one plan.
     */
    const loadForPlan = (propertyId: string, planId: string, now: Date, span: NightSpan, options: LoadOptions = {}) =>
      loadWith(propertyId, planId, now, span, options).pipe(withSpan("PricingInputs.loadForPlan"))

    return { load, loadForPlan } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
