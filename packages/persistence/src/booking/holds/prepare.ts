// The first half of a hold, before any lock: everything the pricing snapshot alone decides, in the order of
// checks of ../Holds.ts. A hold of `POST /holds` and each room of `POST /bookings` run exactly this.
import {
  BlockNotFound,
  Blocks,
  Booking,
  GuestNotFound,
  type PartyTooLarge,
  Pricing,
  RatePlanNotFound,
  RoomTypeNotFound
} from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { PricingSnapshot, SnapshotPlan, SnapshotRoomType } from "../../quotes/PricingInputs.js"
import type { Offer } from "../../quotes/Quotes.js"
import type { HoldActor, HoldRequest } from "./requests.js"
import type { BlockRead } from "../../blocks/BlockSql.js"

/** A hold request checked against the snapshot and priced, waiting for the checks that need locks. */
export interface Prepared {
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

/**
 * A pickup's block (locked and read by the caller, under the room type's lock): 404 when there is none, then
 * whether this hold may pick up from it (`Blocks.checkPickup`); answers what the offer prices with.
 */
const pickupOf = (request: HoldRequest, block: BlockRead | undefined) =>
  Effect.gen(function*() {
    if (request.blockId === null) return undefined
    if (block === undefined) return yield* new BlockNotFound({ message: `No block ${request.blockId}` })
    yield* Blocks.checkPickup({
      status: Blocks.statusOf(block.block.status, block.nights),
      roomTypeId: block.block.room_type_id,
      ratePlanId: block.block.rate_plan_id
    }, request)
    return { price: Blocks.pickupPrice(block.block) }
  })

/**
 * Everything the snapshot alone decides, up to the checks that need locks: the stay's fields, the referenced
 * ids, the dependent fields, and the priced offer (as if a room were free: availability is counted under the
 * room type's lock). No offer is priced for a party too large for the room type: that is refused after the
 * live-hold caps, which are checked under their locks. Whether the guest exists was read with the snapshot;
 * with `guestFound` (a promo code's hold, checked under the locks) the guest's lock told it.
 */
export const prepareHold = (
  actor: HoldActor,
  request: HoldRequest,
  snapshot: PricingSnapshot,
  now: Date,
  guestFound?: boolean,
  block?: BlockRead
) =>
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
    if (!(guestFound ?? snapshot.guestFound ?? false)) {
      return yield* new GuestNotFound({ message: `No guest ${request.guestId}` })
    }
    const pickup = yield* pickupOf(request, block)
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
      pickup,
      // A hold writes the quote's lines, never the nights' trace.
      pricing: { trace: false },
      addOns: request.addOns.map((addOn, i) => ({ service: services[i].model, quantity: addOn.quantity }))
    })
    const prepared: Prepared = { snapshot, party, roomType, plan, modifierValues, partyFits, offer, now }
    return prepared
  })
