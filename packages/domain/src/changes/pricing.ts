// What a change does to the stay's price and folio: the nights that keep the amount they were booked at, the
// reversal of the previous stay's priced lines, and whether the price changed at all. The new stay itself is
// priced by the hold's engine (`priceStay` with `keptNights`), never here.
import * as BigDecimal from "effect/BigDecimal"
import type { Amount } from "../money/Money.js"
import type { IsoDate } from "../quotes/dates.js"
import { nightsOf } from "../quotes/dates.js"
import { sameParty, type StayTerms } from "./target.js"

/** What a folio line of a stay says: its kind, text, amount, revenue category, service and night. */
interface LineFields {
  readonly kind: string
  readonly description: string
  readonly amount: Amount
  readonly revenueCategory: string | null
  readonly serviceId: string | null
  readonly quantity: number | null
  /** The night a room line charges. */
  readonly night: IsoDate | null
}

/** A priced line of the stay on the folio (room night, tax, add-on, add-on tax), not yet reversed. */
export interface StayLine extends LineFields {
  readonly id: string
}

/**
 * The nights of the new stay that keep their booked amount: only when the room type, the plan and the party are
 * unchanged, each night of the new stay that the previous stay also had (a room line of that date).
 */
export const keptNights = (
  current: StayTerms,
  target: StayTerms,
  lines: ReadonlyArray<StayLine>
): ReadonlyMap<IsoDate, Amount> => {
  const kept = new Map<IsoDate, Amount>()
  if (current.roomTypeId !== target.roomTypeId || current.ratePlanId !== target.ratePlanId) return kept
  if (!sameParty(current, target)) return kept
  const booked = new Map<IsoDate, Amount>()
  for (const line of lines) {
    if (line.kind === "room" && line.night !== null) booked.set(line.night, line.amount)
  }
  for (const night of nightsOf(target.checkIn, target.checkOut)) {
    const amount = booked.get(night)
    if (amount !== undefined) kept.set(night, amount)
  }
  return kept
}

/** A line a change appends: a reversal, a line of the new stay, or the change fee. */
export interface ChangeLine extends LineFields {
  /** The line a reversal cancels out. */
  readonly reverses: string | null
}

export const reversalPrefix = "Reversal: "

/** One `reversal` line per priced line of the previous stay: same amount with its sign reversed. */
export const reversalLines = (lines: ReadonlyArray<StayLine>): ReadonlyArray<ChangeLine> =>
  lines.map((line) => ({
    kind: "reversal",
    description: `${reversalPrefix}${line.description}`,
    amount: BigDecimal.negate(line.amount),
    revenueCategory: line.revenueCategory,
    serviceId: line.serviceId,
    quantity: line.quantity,
    night: line.night,
    reverses: line.id
  }))

/** A priced line as the engine answers it (a quote's line). */
export interface PricedLine {
  readonly kind: string
  readonly description: string
  readonly amount: Amount
  readonly revenueCategory: string | null
  readonly serviceId?: string | undefined
  readonly quantity?: number | undefined
  readonly date?: IsoDate | undefined
}

/** Whether the new stay's lines are exactly the previous ones (same kinds, descriptions and amounts, in order). */
export const samePrice = (previous: ReadonlyArray<StayLine>, next: ReadonlyArray<PricedLine>): boolean =>
  previous.length === next.length &&
  previous.every((line, i) =>
    line.kind === next[i].kind && line.description === next[i].description && BigDecimal.equals(line.amount, next[i].amount)
  )

/** The new stay's lines as the change appends them. */
export const newStayLines = (lines: ReadonlyArray<PricedLine>): ReadonlyArray<ChangeLine> =>
  lines.map((line) => ({
    kind: line.kind,
    description: line.description,
    amount: line.amount,
    revenueCategory: line.revenueCategory,
    serviceId: line.serviceId ?? null,
    quantity: line.quantity ?? null,
    night: line.date ?? null,
    reverses: null
  }))
