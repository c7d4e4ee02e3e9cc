import * as BigDecimal from "effect/BigDecimal"
import * as Money from "../money/Money.js"

// What was paid towards a stay: the one figure every money rule of a confirmed stay starts from (a change's
// amount due and refund, a cancel's refund and its quote). A refund already written gave money back, and a
// change fee is money the property kept: neither still pays for the stay. Without this, a stay shortened (its
// refund written) and then cancelled would refund the same money twice, and a stay shortened at a fee and then
// extended would owe nothing for the nights it bought back.

/** A folio line as this rule reads it. */
export interface PaidLine {
  readonly kind: string
  readonly amount: Money.Amount
  readonly currency: string
}

/** Lines that take back from what was paid: a refund gives it back, a change fee keeps it. */
const takenBack: ReadonlyArray<string> = ["refund", "change_fee"]

/**
 * The payments in `currency` (the reservation's), less the refunds and the `change_fee` lines written in it,
 * never below zero. Credits are not money paid, and a line in another currency never pays for this stay.
 */
export const paidTowardsStay = (lines: ReadonlyArray<PaidLine>, currency: string): Money.Amount => {
  let paid = Money.zero
  for (const line of lines) {
    if (line.currency !== currency) continue
    if (line.kind === "payment") paid = BigDecimal.sum(paid, line.amount)
    else if (takenBack.includes(line.kind)) paid = BigDecimal.subtract(paid, line.amount)
  }
  return BigDecimal.isPositive(paid) ? paid : Money.zero
}
