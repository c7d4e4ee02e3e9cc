// The money of a change on a confirmed (or checked-in) stay: what the guest still owes, or what is owed back by
// the cancellation tier in force now and what the property keeps of the excess as a change fee. A hold has paid
// nothing and owes nothing yet (its confirm settles the new total).
import * as BigDecimal from "effect/BigDecimal"
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"
import { settleCancellation } from "../booking/settlement.js"
import { earnOnConfirm } from "../booking/confirmation.js"
import type { IsoDate } from "../quotes/dates.js"
import type { CancellationTier } from "../quotes/model.js"
import type { ChangeStep } from "./target.js"

export interface ChangeSettlement {
  /** New total − payments, when positive. */
  readonly amountDue: Amount
  /** (payments − new total) × the refund percent a cancellation now gets, in minor units, rounded down. */
  readonly refundDueMinor: bigint
  /** The part of the excess the property keeps (the folio's `change_fee` line); zero writes no line. */
  readonly changeFee: Amount
  /** The refund percent applied to the excess (0 when nothing was paid above the new total). */
  readonly refundPercent: number
}

const nothing: ChangeSettlement = { amountDue: Money.zero, refundDueMinor: 0n, changeFee: Money.zero, refundPercent: 0 }

/**
 * `paid` is the payments less refunds in the reservation currency. The refund percent is the cancellation
 * tier's (`settleCancellation`, the cancel's own computation) for the reservation as it stands before the change.
 */
export const settleChange = (input: {
  readonly step: ChangeStep
  readonly total: Amount
  readonly paid: Amount
  readonly tiers: ReadonlyArray<CancellationTier>
  readonly checkIn: IsoDate
  readonly timeZone: string
  readonly now: Date
  readonly currency: string
}): ChangeSettlement => {
  if (input.step === "hold") return nothing
  const owed = BigDecimal.subtract(input.total, input.paid)
  if (BigDecimal.isPositive(owed)) return { ...nothing, amountDue: owed }
  const excess = BigDecimal.negate(owed)
  if (!BigDecimal.isPositive(excess)) return nothing
  const settlement = settleCancellation({ ...input, paid: excess })
  return {
    amountDue: Money.zero,
    refundDueMinor: settlement.refundDueMinor,
    changeFee: settlement.fee,
    refundPercent: settlement.refundPercent
  }
}

/** The change fee's line description. */
export const changeFeeDescription = (refundPercent: number) =>
  `Change fee (${100 - refundPercent}% of the amount paid above the new total)`

/**
 * The points a change adds (or takes back) so that the stay's net earn is what its new room revenue earns: a
 * USD stay earns `perUsd` per whole USD, any other currency nothing.
 */
export const loyaltyDifference = (currency: string, roomRevenue: Amount, perUsd: number, netEarned: number): number => {
  const earn = earnOnConfirm(currency, roomRevenue, perUsd)
  return (earn._tag === "Earn" ? earn.points : 0) - netEarned
}

/** `total` − `previousTotal`, signed. */
export const difference = (total: Amount, previousTotal: Amount): Amount => BigDecimal.subtract(total, previousTotal)
