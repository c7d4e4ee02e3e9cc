// What a cancel now would owe, computed exactly as
// the cancel computes it (`Booking.settleCancellation`: the same tiers, the same local "today", the same paid
// amount), plus the `until` of the term in force, so a quote and a cancel at the same instant always agree.
import { type CancellationSettlement, settleCancellation } from "../settlement.js"
import { cancellationTerms, termInForce } from "./policy.js"

/**
 * The tiers a reservation's cancel applies: the policy frozen on it at hold time; for a reservation without one,
 * its plan's policy, then the property's.
 */
export const tiersInForce = <T>(frozen: T | null, plan: T | null, property: T): T => frozen ?? plan ?? property

export interface CancellationQuote {
  /** The cancel's own figures at that instant. */
  readonly settlement: CancellationSettlement
  /** Until when (UTC ISO) this percentage applies; null when it is the last term. */
  readonly tierUntil: string | null
}

/** Exactly what the cancel is given, so the quote cannot be computed from anything the cancel would not see. */
export const quoteCancellation = (input: Parameters<typeof settleCancellation>[0]): CancellationQuote => {
  const settlement = settleCancellation(input)
  const term = termInForce(cancellationTerms(input.tiers, input.checkIn, input.timeZone, input.now), input.now)
  return { settlement, tierUntil: term.until }
}
