import * as SqlClient from "@effect/sql/SqlClient"
import {
  Booking,
  Cancellation,
  GuestNotFound,
  type PartyTooLarge,
  Pricing,
  RatePlanNotFound,
  RoomTypeNotFound
} from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { HoldActor, HoldCreated, HoldError, HoldRequest } from "./holds/requests.js"
import { type HoldLocks, lockForHold } from "./holds/limits.js"
import { writeHold } from "./holds/writes.js"
import { Inventory } from "../quotes/Inventory.js"
import { PricingInputs, type PricingSnapshot, type SnapshotPlan, type SnapshotRoomType } from "../quotes/PricingInputs.js"
import type { Offer } from "../quotes/Quotes.js"
import { keyPropertyExists } from "../platform/KeyProperty.js"
import type { EventOutbox } from "../events/EventOutbox.js"
import * as Metric from "effect/Metric"
import { countNoAvailability, holdsCreated } from "./BookingMetrics.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// `POST /holds`: one transaction per hold, as short as the rules allow. What the price and the
// request's checks depend on is read and computed first, outside it (./holds/ `prepare`: snapshot, guest,
// services, dependent fields, the priced offer). The requested room type's row lock (`FOR NO KEY UPDATE`:
// holds of one room type run one at a time, holds of different room types never wait on each other, and
// foreign-key checks of other writers are not blocked) is the one holds queue on, so it is held for as few
// round trips as possible: the guest's lock (and a capped key's), which the live-hold caps need, are taken
// before it, and its own statement reads the live-hold counts (./holds/limits.ts). Under it then run only
// the taken nights' count (`Inventory`, at `now` from `Clock`), the insert (which answers the reservation as
// read, so its event needs no read), the events and the commit. A promo code's redemption count must be read
// under the code's lock: with a promo code the chain's codes are locked right after the room type
// (`PricingInputs.lockPromoCodes`, in id order) and the snapshot is loaded and priced under them. Lock order
// is always guest → API key → room type → promo codes, so holds cannot deadlock each other.
//
// Order of checks: field rules of the stay (400 `check_out` / `check_in`) → referenced ids (404
// room type, rate plan, guest, each add-on's service) → rules on fields that need those resources (400
// `bed_config`, `add_ons[i].service_id` for a service that is not guest-bookable, `add_ons[i].modifier_values.k`)
// → live-hold caps (409 `hold_limit_reached`) → `party_too_large` → visibility (404 `rate_plan_not_found`)
// → availability (409 `no_availability`).
//
// Pricing is the quote's own path (`offerFor` → `stayRequestFor` → `priceStay`), so a hold without add-ons
// writes exactly the lines `GET /rates` showed, and add-ons only add lines. Every rule that refuses a hold is the
// domain's (`Booking`, `Pricing`); the request types, the locks and the writes are in ./holds/.

export type { HoldActor, HoldAddOnRequest, HoldCreated, HoldError, HoldRequest } from "./holds/requests.js"

/** A hold request checked against the snapshot and priced, waiting for the checks that need locks. */
interface Prepared {
  readonly snapshot: PricingSnapshot
  readonly party: Pricing.Party
  readonly roomType: SnapshotRoomType
  readonly plan: SnapshotPlan
  readonly modifierValues: ReadonlyArray<Readonly<Record<string, unknown>>>
  readonly partyFits: Either.Either<void, PartyTooLarge>
  /** Priced as if a room were free; None when the plan is hidden or the party too large. */
  readonly offer: Option.Option<Offer>
  readonly now: Date
}

export class Holds extends Effect.Service<Holds>()("@hotel/persistence/booking/Holds", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inputs = yield* PricingInputs
    const inventory = yield* Inventory

    const loadSnapshot = (actor: HoldActor, request: HoldRequest, now: Date) =>
      inputs.loadForPlan(actor.propertyId, request.ratePlanId, now, { guestId: request.guestId }).pipe(
        Effect.flatMap(keyPropertyExists(actor.propertyId))
      )

    /**
     * Everything the snapshot alone decides, up to the checks that need locks: the stay's fields, the
     * referenced ids, the dependent fields, and the priced offer (as if a room were free: availability is
     * counted under the room type's lock). No offer is priced for a party too large for the room type: that
     * is refused after the live-hold caps, which are checked under their locks. Whether the guest exists was
     * read with the snapshot; with `locks` (a promo code's hold, checked under them) the guest's lock told it.
     */
    const prepare = (actor: HoldActor, request: HoldRequest, snapshot: PricingSnapshot, now: Date, locks?: HoldLocks) =>
      Effect.gen(function*() {
        const party: Pricing.Party = { adults: request.adults, children: request.children, childAges: request.childAges }
        const stay: Pricing.StayQuery = {
          checkIn: request.checkIn,
          checkOut: request.checkOut,
          party,
          promoCode: request.promoCode
        }
        yield* Pricing.validateStay(stay, snapshot.today)
        const roomType = snapshot.roomTypesById.get(request.roomTypeId)
        if (roomType === undefined) return yield* new RoomTypeNotFound({ message: `No room type ${request.roomTypeId}` })
        const plan = snapshot.plansById.get(request.ratePlanId)
        if (plan === undefined) return yield* new RatePlanNotFound({ message: `No rate plan ${request.ratePlanId}` })
        if (!(locks?.guestFound ?? snapshot.guestFound ?? false)) {
          return yield* new GuestNotFound({ message: `No guest ${request.guestId}` })
        }
        const services = yield* Booking.addOnServices(snapshot, request)
        const modifierValues = yield* Booking.checkDependentFields(request, roomType.bedConfigs, services)
        const partyFits = Booking.checkPartyFits(Pricing.partySize(party), roomType.maxOccupancy)
        const offer = Either.isLeft(partyFits) ? Option.none() : Pricing.offerFor({
          snapshot,
          plan,
          roomTypeId: roomType.id,
          stay,
          salesContext: actor.salesContext,
          available: 1,
          // A hold writes the quote's lines, never the nights' trace.
          pricing: { trace: false },
          addOns: request.addOns.map((addOn, i) => ({ service: services[i].model, quantity: addOn.quantity }))
        })
        return { snapshot, party, roomType, plan, modifierValues, partyFits, offer, now }
      })

    /**
     * Under the locks: the live-hold caps (counted when the room type's lock was taken), `party_too_large`,
     * then the rooms free on every night decide the offer priced beforehand; then the writes.
     */
    const decideAndWrite = (actor: HoldActor, request: HoldRequest, prepared: Prepared, locks: HoldLocks) =>
      Effect.gen(function*() {
        const { modifierValues, now, offer, plan, roomType, snapshot } = prepared
        yield* Booking.checkHoldLimits(locks.live)
        yield* prepared.partyFits
        const [stock] = yield* inventory.available(actor.propertyId, {
          roomTypeId: roomType.id,
          from: request.checkIn,
          to: request.checkOut,
          now
        })
        const available = Option.map(offer, Pricing.withAvailability(stock?.available ?? 0))
        const quote = Booking.bookableQuote(available, plan, roomType, request)
        if (Either.isLeft(quote)) return yield* quote.left
        return yield* writeHold(sql, actor, request, {
          plan,
          quote: quote.right,
          children: Pricing.childCount(prepared.party),
          promo: Booking.frozenPromoCode(snapshot, plan, request.promoCode),
          holdExpiresAt: Booking.holdExpiresAt(now),
          policy: Cancellation.policyFor(plan.model, snapshot.property.pricing),
          now
        }, modifierValues)
      })

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
        const early = withPromo
          ? undefined
          : yield* loadSnapshot(actor, request, now).pipe(Effect.flatMap((snapshot) => prepare(actor, request, snapshot, now)))
        return yield* Effect.gen(function*() {
          const locks = yield* lockForHold(sql, actor, request, now)
          if (withPromo) yield* inputs.lockPromoCodes(actor.propertyId, request.ratePlanId)
          const prepared = early ?? (yield* loadSnapshot(actor, request, now).pipe(
            Effect.flatMap((snapshot) => prepare(actor, request, snapshot, now, locks))
          ))
          return yield* decideAndWrite(actor, request, prepared, locks)
        }).pipe(inTransaction(sql))
      }).pipe(
        Effect.catchTag("SqlError", Effect.die),
        Effect.tap(() => Metric.increment(holdsCreated)),
        countNoAvailability,
        withSpan("Holds.create")
      )

    return { create } as const
  }),
  dependencies: [PricingInputs.Default, Inventory.Default]
}) {}
