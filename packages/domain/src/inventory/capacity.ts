// The rules sale applies to a night's figures. The capacity itself, min(rooms in service, sell limit when set) +
// overbooking, is computed once, by the inventory statement (`night_capacity`, migration 0013), which answers it
// with the figures; every path that sells or quotes (holds, booking rooms, changes, confirms, definite blocks,
// `/rates`, `/availability`) decides with these functions from that answer.

/** A night's supply: the type's rooms, those out of order, and the revenue manager's controls. */
export interface NightSupply {
  /** Rooms of the type (not retired). */
  readonly rooms: number
  /** Of those, out of order that night. */
  readonly outOfOrder: number
  /** The most the night may sell of the rooms in service; null for no limit. */
  readonly sellLimit: number | null
  /** Rooms sold beyond the capacity on purpose (0 for none). */
  readonly overbooking: number
}

/** What the night has sold or set aside. */
export interface NightDemand {
  /** Live holds, confirmed and checked-in stays. */
  readonly taken: number
  /** Remaining units of definite blocks not yet released. */
  readonly blocked: number
}

/** Rooms in service that night. */
export const inService = (night: NightSupply): number => Math.max(0, night.rooms - night.outOfOrder)

/**
 * Free for general sale: capacity − taken − blocked, never below zero (a capacity set below what is taken stops
 * sales and cancels nothing). A pickup may also take its own block's remaining units (`own`).
 */
export const freeForSale = (night: NightDemand & { readonly capacity: number; readonly own: number }) => {
  const available = Math.max(0, night.capacity - night.taken - night.blocked)
  return { available, availableToPickup: available + night.own }
}

/**
 * Whether the rooms in service, with the night's overbooking, still cover what is taken and set aside there (the
 * sell limit aside: it only stops further sales). A period out of order must leave this true on each of its
 * nights, so a period out of order never takes a night from a live hold either.
 */
export const coversTaken = (night: NightSupply & NightDemand): boolean =>
  inService(night) + night.overbooking >= night.taken + night.blocked

/**
 * Rooms a live reservation may keep (its own nights not counted in `taken`): the confirm's re-check.
 * `soldUnder` is the highest overbooking the night's stays (the reservation's included) were sold under: an
 * overbooking lowered since is a capacity change, which takes no night from a live hold, so the night counts at
 * least that much. Only stays and blocks beyond every room in service plus it (inventory lost to a sale that no
 * capacity allowed) leave nothing to keep.
 */
export const roomsToKeep = (
  night: NightSupply & NightDemand & { readonly own: number; readonly soldUnder?: number | undefined }
): number =>
  Math.max(0, inService(night) + Math.max(night.overbooking, night.soldUnder ?? 0) - night.taken - night.blocked) +
  night.own
