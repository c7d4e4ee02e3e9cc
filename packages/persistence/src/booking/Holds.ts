import * as SqlClient from "effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import type { HoldActor, HoldCreated, HoldError, HoldRequest } from "./holds/requests.js"
import { lockStay } from "./stayLocks.js"
import { placeHold } from "./holds/place.js"
import { prepareHold } from "./holds/prepare.js"
import { holdEvents } from "./holds/writes.js"
import { Inventory } from "../inventory/Inventory.js"
import { PricingInputs, staySpan } from "../quotes/PricingInputs.js"
import { keyPropertyExists } from "../platform/KeyProperty.js"
import { EventOutbox } from "../events/EventOutbox.js"
import * as Metric from "effect/Metric"
import { countNoAvailability, holdsCreated } from "./BookingMetrics.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// `POST /holds`: one transaction per hold, as short as the rules allow. What the price and the
// request's checks depend on is read and computed first, outside it (`prepareHold`, ./holds/prepare.ts:
// snapshot, guest, services, dependent fields, the priced offer). The requested room type's row lock is the one
// holds queue on, so it is held for as few round trips as possible: the guest's lock (and a capped key's), which
// the live-hold caps need, are taken before it, and its own statement reads the live-hold counts. Under it then
// run only the taken nights' count (`Inventory`, at `now` from `Clock`), the insert with the events (rendered
// from the reservation as its rows will read, so they need no read and no statement of their own) and the
// commit. A promo code's redemption count
// must be read under the code's lock: with a promo code the chain's codes are locked too and the snapshot is
// loaded and priced under them. A pickup (`block_id`) is prepared under the locks too, as with a promo code: the
// block's status, price and units are read under its lock. Every lock is taken by `lockStay` (./stayLocks.ts),
// which holds the order.
//
// Order of checks: field rules of the stay (400 `check_out` / `check_in`) → referenced ids (404
// room type, rate plan, guest, each add-on's service) → rules on fields that need those resources (400
// `bed_config`, `add_ons[i].service_id` for a service that is not guest-bookable, `add_ons[i].modifier_values.k`)
// → live-hold caps (409 `hold_limit_reached`) → `party_too_large` → visibility (404 `rate_plan_not_found`)
// → availability (409 `no_availability`).
//
// Pricing is the quote's own path (`offerFor` → `stayRequestFor` → `priceStay`), so a hold without add-ons
// writes exactly the lines `GET /rates` showed, and add-ons only add lines. Every rule that refuses a hold is the
// domain's (`Booking`, `Pricing`); the request types, the locks and the writes are in ./holds/. The two halves of a
// hold (`prepareHold` before the locks, `placeHold` under them) are what each room of a booking runs too
// (Bookings.ts), so a room of a booking is priced, checked and written exactly as a hold.

export type { HoldActor, HoldAddOnRequest, HoldCreated, HoldError, HoldRequest } from "./holds/requests.js"

export class Holds extends Context.Service<Holds>()("@hotel/persistence/booking/Holds", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inputs = yield* PricingInputs
    const inventory = yield* Inventory

    const loadSnapshot = (actor: HoldActor, request: HoldRequest, now: Date) =>
      inputs.loadForPlan(actor.propertyId, request.ratePlanId, now, staySpan(request), { guestId: request.guestId }).pipe(
        Effect.flatMap(keyPropertyExists(actor.propertyId))
      )

    /**
     * Without a promo code nothing the price depends on is guarded by a lock, so the snapshot is loaded, the
     * request checked and the stay priced before the transaction takes its locks: under the room type's run
     * only the availability count, the writes and the events. With a promo code the redemption counts must be
     * read under the codes' locks, so the snapshot is loaded (and the stay priced) after taking them.
     */
    const create = (actor: HoldActor, request: HoldRequest): Effect.Effect<HoldCreated, HoldError, EventOutbox> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const withPromo = request.promoCode !== null && request.promoCode !== ""
        // A pickup's block is read under its lock (its status, price and units decide the hold).
        const early = withPromo || request.blockId !== null
          ? undefined
          : yield* loadSnapshot(actor, request, now).pipe(Effect.flatMap((snapshot) => prepareHold(actor, request, snapshot, now)))
        return yield* Effect.gen(function*() {
          const locks = yield* lockStay(sql, actor.propertyId, {
            guest: { guestId: request.guestId, apiKeyId: actor.apiKeyId },
            roomTypes: [request.roomTypeId],
            blocks: request.blockId === null ? [] : [request.blockId],
            promoCodesOf: withPromo ? [request.ratePlanId] : [],
            now
          })
          const block = request.blockId === null ? undefined : locks.blocks.get(request.blockId)
          const prepared = early ?? (yield* loadSnapshot(actor, request, now).pipe(
            Effect.flatMap((snapshot) => prepareHold(actor, request, snapshot, now, locks.guest.guestFound, block))
          ))
          const outbox = yield* EventOutbox
          const placed = yield* placeHold(sql, inventory, actor, request, prepared, locks.guest.live, null, {
            roomTypeName: locks.roomTypes.get(request.roomTypeId)?.name ?? prepared.roomType.name,
            events: (hold) => outbox.render(actor.propertyId, holdEvents([hold]))
          })
          return placed.created
        }).pipe(inTransaction(sql))
      }).pipe(
        Effect.catchTag("SqlError", Effect.die),
        Effect.tap(() => Metric.update(holdsCreated, 1)),
        countNoAvailability,
        withSpan("Holds.create")
      )

    return { create } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([PricingInputs.layer, Inventory.layer]))
}
