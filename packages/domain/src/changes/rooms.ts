// The rooms a new stay needs. A night of the new stay that the reservation already holds, of the same room type,
// is kept as a confirm keeps a live hold's nights (`Inventory.roomsToKeep`): a sell limit or an overbooking
// lowered since it was sold never refuses it, so a shorter stay or a smaller party on the same nights always
// fits. Only a night it does not hold needs a room for sale under today's capacity (`Inventory.freeForSale`).
import { daysBetween, type IsoDate, nightsOf } from "../quotes/dates.js"
import type { StayTerms } from "./target.js"

/**
 * For each night of the new stay, in date order: the overbooking the reservation holds it under (its
 * `held_overbooking` entry for that night; 0 when none was recorded, so the night's current overbooking decides,
 * as at confirm), or null for a night it does not hold (another date, or another room type).
 */
export const heldNights = (
  current: Pick<StayTerms, "roomTypeId" | "checkIn" | "checkOut">,
  target: Pick<StayTerms, "roomTypeId" | "checkIn" | "checkOut">,
  heldOverbooking: ReadonlyArray<number> | null
): ReadonlyArray<number | null> =>
  nightsOf(target.checkIn, target.checkOut).map((night: IsoDate) =>
    target.roomTypeId === current.roomTypeId && current.checkIn <= night && night < current.checkOut
      ? heldOverbooking?.[daysBetween(current.checkIn, night)] ?? 0
      : null
  )

/** A night's rooms as the inventory count gives them: for sale (a pickup's own block included), and to keep. */
export interface NightRooms {
  readonly availableToPickup: number
  readonly availableToKeep: number
}

/** The rooms the new stay finds on every night: what a live hold keeps on a night it holds, else what is for sale. */
export const roomsForStay = (nights: ReadonlyArray<NightRooms>, held: ReadonlyArray<number | null>): number =>
  nights.length === 0
    ? 0
    : Math.min(...nights.map((night, i) => (held[i] ?? null) === null ? night.availableToPickup : night.availableToKeep))

/**
 * The overbooking the changed reservation records for each night of its new stay (`held_overbooking`): the
 * night's overbooking now, and on a night it kept at least what it held it under, so what it keeps today it
 * still keeps at a later confirm or change.
 */
export const overbookingHeld = (overbooking: ReadonlyArray<number>, held: ReadonlyArray<number | null>): ReadonlyArray<number> =>
  overbooking.map((now, i) => Math.max(now, held[i] ?? 0))
