// The first half of a hold, before any lock: everything the pricing snapshot alone decides, in the order of
// checks of ../Holds.ts. A hold of `POST /holds` and each room of `POST /bookings` run exactly this: the domain's
// one check of a request for a stay (`Booking.checkStay`), with a hold's own field rules and, after the plan, its
// guest and its pickup's block.
import { Blocks, Booking, Pricing } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import type { PricingSnapshot, SnapshotPlan, SnapshotRoomType } from "../../quotes/PricingInputs.js"
import type { HoldActor, HoldRequest } from "./requests.js"
import { type BlockRead, pickupBlockOf } from "../../blocks/BlockSql.js"

/** A hold request checked against the snapshot and priced, waiting for the checks that need locks. */
export interface Prepared extends Booking.CheckedStay<SnapshotPlan, SnapshotRoomType> {
  readonly snapshot: PricingSnapshot
  readonly now: Date
}

/** The stay a hold asks for. */
export const requestedStay = (request: HoldRequest): Booking.RequestedStay => ({
  ...request,
  party: { adults: request.adults, children: request.children, childAges: request.childAges }
})

/**
 * Everything the snapshot alone decides, up to the checks that need locks (`Booking.checkStay`). Whether the
 * guest exists was read with the snapshot; with `guestFound` (a promo code's hold, checked under the locks) the
 * guest's lock told it. A pickup's block was locked and read by the caller, under the room type's lock.
 */
export const prepareHold = (
  actor: HoldActor,
  request: HoldRequest,
  snapshot: PricingSnapshot,
  now: Date,
  guestFound?: boolean,
  block?: BlockRead
) => {
  const stay = requestedStay(request)
  const pickup = block === undefined ? undefined : pickupBlockOf(block)
  return Effect.map(
    Booking.checkStay(snapshot, stay, {
      salesContext: actor.salesContext,
      fields: Pricing.validateStay(stay, snapshot.today),
      afterPlan: () =>
        Result.andThen(
          Booking.checkGuestFound(guestFound ?? snapshot.guestFound ?? false, request.guestId),
          request.blockId === null ? Result.void : Blocks.checkPickupOf(request.blockId, pickup, request)
        ),
      pickup: request.blockId === null || pickup === undefined ? undefined : { price: pickup.price }
    }),
    (checked): Prepared => ({ ...checked, snapshot, now })
  )
}
