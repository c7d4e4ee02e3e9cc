// Who in a party is an "extra guest", and what share of the extra-guest charge a child pays.
import * as BigDecimal from "effect/BigDecimal"
import type { Amount } from "../money/Money.js"
import type { AgeBracket, Party, RoomType } from "./model.js"

/** A child's age, or null when the request gave a count without `child_ages`. */
export type ChildAge = number | null

export interface Guests {
  readonly adults: number
  /** Every child, oldest first (unknown ages last). */
  readonly children: ReadonlyArray<ChildAge>
  readonly total: number
  readonly extraAdults: number
  /** The children beyond base occupancy, oldest first. */
  readonly extraChildren: ReadonlyArray<ChildAge>
}

const HUNDRED = BigDecimal.fromBigInt(100n)

/** `child_ages`, when present, is the authoritative child count. */
export const childCount = (party: Party): number => party.childAges != null ? party.childAges.length : party.children ?? 0

export const partySize = (party: Party): number => party.adults + childCount(party)

const oldestFirst = (a: ChildAge, b: ChildAge): number => (b ?? -1) - (a ?? -1)

/**
 * Adults fill base occupancy first, then children oldest first; everyone beyond is an extra guest. Filling
 * with the oldest children leaves the youngest (cheapest brackets) as the extras, as the pricing rules say.
 */
export const allocateGuests = (party: Party, roomType: RoomType): Guests => {
  const children: ReadonlyArray<ChildAge> = party.childAges != null
    ? [...party.childAges].sort(oldestFirst)
    : Array.from({ length: party.children ?? 0 }, () => null)
  const base = Math.max(0, roomType.baseOccupancy)
  const freeForChildren = Math.max(0, base - party.adults)
  return {
    adults: party.adults,
    children,
    total: party.adults + children.length,
    extraAdults: Math.max(0, party.adults - base),
    extraChildren: children.slice(freeForChildren)
  }
}

/**
 * Percent of the extra-guest charge an extra child pays: brackets by ascending `maxAge`, the first with
 * age <= maxAge applies; older than every bracket pays as an adult (100%). A child without a known age
 * gets no age-based relief (100%) — the engine never guesses an age in the guest's favour or against it
 * beyond what was stated; the same rule makes such a child taxable (see taxes.ts).
 */
export const childSharePercent = (brackets: ReadonlyArray<AgeBracket>, age: ChildAge): Amount => {
  if (age === null) return HUNDRED
  const bracket = [...brackets].sort((a, b) => a.maxAge - b.maxAge).find((b) => age <= b.maxAge)
  return bracket === undefined ? HUNDRED : bracket.extraGuestPercent
}
