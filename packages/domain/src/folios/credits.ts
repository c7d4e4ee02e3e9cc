// Credits: a credit entitlement of a reservation is a spendable allowance for one revenue
// category, in its own currency. A charge posted in that category and currency consumes it first, each credit
// up to its remaining allowance (allowance − consumed) and never beyond the charge; what the credits cover is
// written as `credit` lines (they count as payments), one per credit used.
import * as BigDecimal from "effect/BigDecimal"
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"

export interface CreditEntitlement {
  readonly id: string
  readonly label: string
  readonly revenueCategory: string
  readonly currency: string
  readonly allowance: Amount
  readonly consumed: Amount
}

export interface ChargeFacts {
  /** The charge line's amount (unit price × quantity, rounded to the currency's minor units). */
  readonly amount: Amount
  readonly currency: string
  readonly revenueCategory: string
}

export interface CreditUse {
  readonly entitlementId: string
  readonly label: string
  /** What this credit covers of the charge, in the charge's currency (the credit line's amount). */
  readonly amount: Amount
  /** The entitlement's `consumed` after this charge. */
  readonly consumedAfter: Amount
}

/** What is left of a credit: allowance − consumed, never below zero. */
export const remainingOf = (credit: CreditEntitlement): Amount => {
  const left = BigDecimal.subtract(credit.allowance, credit.consumed)
  return BigDecimal.isNegative(left) ? Money.zero : left
}

/** Whether a credit pays for a charge: same revenue category, same currency, something left. */
export const appliesTo = (credit: CreditEntitlement, charge: Omit<ChargeFacts, "amount">): boolean =>
  credit.revenueCategory === charge.revenueCategory && credit.currency === charge.currency &&
  BigDecimal.isPositive(remainingOf(credit))

/**
 * The credits a charge consumes, in the order given (the entitlements' stored order): each covers
 * min(its remaining allowance, what is still uncovered of the charge). Credits that do not apply, and every
 * credit once the charge is covered, are left out. The sum of the uses never exceeds the charge, and no use
 * exceeds its credit's remaining allowance.
 */
export const consumeCredits = (
  credits: ReadonlyArray<CreditEntitlement>,
  charge: ChargeFacts
): ReadonlyArray<CreditUse> => {
  const uses: Array<CreditUse> = []
  let uncovered = BigDecimal.isPositive(charge.amount) ? charge.amount : Money.zero
  for (const credit of credits) {
    if (!BigDecimal.isPositive(uncovered)) break
    if (!appliesTo(credit, charge)) continue
    const remaining = remainingOf(credit)
    const amount = BigDecimal.min(remaining, uncovered)
    uses.push({
      entitlementId: credit.id,
      label: credit.label,
      amount,
      consumedAfter: BigDecimal.sum(credit.consumed, amount)
    })
    uncovered = BigDecimal.subtract(uncovered, amount)
  }
  return uses
}

/** The total a list of uses covers. */
export const coveredBy = (uses: ReadonlyArray<CreditUse>): Amount => Money.sum(uses.map((use) => use.amount))
