import { Changes as Rules } from "@hotel/domain"
import * as Effect from "effect/Effect"
import type { Inventory } from "../inventory/Inventory.js"
import type { ChangeFacts } from "./ChangeFacts.js"

// The rooms the new stay of a change finds, the PATCH (under its room type locks) and its quote alike: the one
// inventory count without the reservation itself, each night the reservation already holds of the same type
// judged as a confirm judges a live hold's (`availableToKeep`, with the overbooking it holds the night under),
// every other night as a sale (`available`): `Changes.roomsForStay`.

export interface StayRooms {
  /** The rooms free for the new stay on every night (`Pricing.withAvailability` takes it). */
  readonly available: number
  /** What the change records as each new night's `held_overbooking`, in date order. */
  readonly heldOverbooking: ReadonlyArray<number>
}

export const roomsForChange = (
  inventory: Inventory["Service"],
  input: {
    readonly propertyId: string
    readonly facts: ChangeFacts
    readonly target: Rules.StayTerms
    /** The block the new stay picks up from (`Restay.blockId`). */
    readonly blockId: string | null
    readonly now: Date
  }
): Effect.Effect<StayRooms> => {
  const { facts, target } = input
  const held = Rules.heldNights(facts.reservation.terms, target, facts.row.held_overbooking)
  return Effect.map(inventory.available(input.propertyId, {
    roomTypeId: target.roomTypeId,
    from: target.checkIn,
    to: target.checkOut,
    now: input.now,
    excludeReservationId: facts.row.id,
    blockId: input.blockId,
    heldOverbooking: held.map((soldUnder) => soldUnder ?? 0)
  }), ([stock]) => {
    const nights = stock?.nights ?? []
    return {
      available: Rules.roomsForStay(nights, held),
      heldOverbooking: Rules.overbookingHeld(nights.map((night) => night.overbooking), held)
    }
  })
}
