// The money of a change on a confirmed (or checked-in) stay: what the guest still owes, or what is owed back by
// the cancellation tier in force now and what the property keeps of the excess as a change fee. "Paid" is what
// was paid towards the stay (`Folio.paidTowardsStay`: payments less refunds and earlier change fees), so the
// refund and the fee a change writes settle the excess once: after it the folio's balance is the amount due. A
// hold has paid nothing and owes nothing yet (its confirm settles the new total).
import * as BigDecimal from "effect/BigDecimal"
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"
import { settleCancellation } from "../booking/settlement.js"
import { earnOnConfirm } from "../booking/confirmation.js"
import type { IsoDate } from "../quotes/dates.js"
import type { CancellationTier } from "../quotes/model.js"
import type { ChangeStep } from "./target.js"

export interface ChangeSettlement {
  /** New total − paid, when positive. */
  readonly amountDue: Amount
  /** (paid − new total) × the refund percent a cancellation now gets, in minor units, rounded down. */
  readonly refundDueMinor: bigint
  /** The same obligation as an amount of the currency (the folio's `refund` line); zero writes no line. */
  readonly refund: Amount
  /** The part of the excess the property keeps (the folio's `change_fee` line); zero writes no line. */
  readonly changeFee: Amount
  /** The refund percent applied to the excess (0 when nothing was paid above the new total). */
  readonly refundPercent: number
}

const nothing: ChangeSettlement = {
  amountDue: Money.zero,
  refundDueMinor: 0n,
  refund: Money.zero,
  changeFee: Money.zero,
  refundPercent: 0
}

export interface ChangeMoney {
  readonly step: ChangeStep
  readonly total: Amount
  /** What was paid towards the stay, in the reservation currency (`Folio.paidTowardsStay`). */
  readonly paid: Amount
  readonly tiers: ReadonlyArray<CancellationTier>
  readonly checkIn: IsoDate
  readonly timeZone: string
  readonly now: Date
  readonly currency: string
}

/**
 * The money of a change that re-prices the stay. The refund percent is the cancellation tier's
 * (`settleCancellation`, the cancel's own computation) for the reservation as it stands before the change; the
 * excess is split into the refund and the fee exactly as a cancel splits what was paid.
 */
export const settleChange = (input: ChangeMoney): ChangeSettlement => {
  if (input.step === "hold") return nothing
  const owed = BigDecimal.subtract(input.total, input.paid)
  if (BigDecimal.isPositive(owed)) return { ...nothing, amountDue: owed }
  const excess = BigDecimal.negate(owed)
  if (!BigDecimal.isPositive(excess)) return nothing
  const settlement = settleCancellation({ ...input, paid: excess })
  return {
    amountDue: Money.zero,
    refundDueMinor: settlement.refundDueMinor,
    refund: settlement.refund,
    changeFee: settlement.fee,
    refundPercent: settlement.refundPercent
  }
}

/**
 * A change that does not re-price the stay (its notes) moves no money: it only reports what is still owed, and
 * settles nothing of an overpayment.
 */
export const owedWithoutChange = (input: ChangeMoney): ChangeSettlement => {
  const owed = settleChange(input).amountDue
  return { ...nothing, amountDue: owed }
}

/** The change's refund line description. */
export const changeRefundDescription = (refundPercent: number) => `Refund due on change (${refundPercent}%)`

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
