// Money of the confirm and cancel steps: the asserted payment amount, loyalty earn, and the refund obligation
// of a cancellation.
import * as BigDecimal from "effect/BigDecimal"
import * as Option from "effect/Option"
import { daysBeforeArrival, refundDueMinor, refundPercentFor } from "./cancellation/policy.js"
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"
import type { IsoDate } from "../quotes/dates.js"
import type { CancellationTier } from "../quotes/model.js"
import { localToday } from "../rates/visibility/localTime.js"

const DECIMAL = /^\d+(\.\d+)?$/
const LIMIT = BigDecimal.fromBigInt(1_000_000_000n)

/**
 * `payment_amount`: a JSON number or a decimal string, 0 or more, at most 1,000,000,000; read
 * as the decimal it denotes (a number by its shortest round-trip text: `1310.4` is 1310.4 exactly).
 * Undefined when it is none of these.
 */
export const parsePaymentAmount = (value: unknown): Amount | undefined => {
  let text: string
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 0) return undefined
    text = String(value)
  } else if (typeof value === "string" && DECIMAL.test(value)) {
    text = value
  } else {
    return undefined
  }
  return Option.match(BigDecimal.fromString(text), {
    onNone: () => undefined,
    onSome: (amount) => (BigDecimal.isGreaterThan(amount, LIMIT) ? undefined : BigDecimal.normalize(amount))
  })
}

/** The most points one stay earns (a ledger entry is a 32-bit integer). */
export const maxEarnPoints = 1_000_000_000

/** Points a confirmed USD stay earns: `perUsd` per whole USD of room revenue, at most `maxEarnPoints`. */
export const loyaltyPoints = (roomRevenueUsd: Amount, perUsd: number): number => {
  if (BigDecimal.isNegative(roomRevenueUsd) || perUsd <= 0) return 0
  const whole = BigDecimal.scale(BigDecimal.round(roomRevenueUsd, { scale: 0, mode: "floor" }), 0).value
  const points = whole * BigInt(perUsd)
  return points > BigInt(maxEarnPoints) ? maxEarnPoints : Number(points)
}

export interface CancellationSettlement {
  /** Local calendar days from the property's today to check-in (negative after arrival). */
  readonly daysBeforeArrival: number
  readonly refundPercent: number
  /** The obligation in minor units, rounded down (0 when unpaid). */
  readonly refundDueMinor: bigint
  /** The same obligation as an amount of the currency (the folio's `refund` line). */
  readonly refund: Amount
  /** What the property keeps of the paid amount (the folio's `cancellation_fee` line): paid − refund. */
  readonly fee: Amount
}

/**
 * The refund a cancel owes: the tier with the largest `days_before_arrival` not above the actual
 * days before arrival (the property's local date at `now`), applied to the amount paid in the reservation
 * currency, in minor units rounded down. Paid nothing: nothing owed, nothing kept.
 */
export const settleCancellation = (input: {
  readonly tiers: ReadonlyArray<CancellationTier>
  readonly checkIn: IsoDate
  readonly timeZone: string
  readonly now: Date
  readonly paid: Amount
  readonly currency: string
}): CancellationSettlement => {
  const days = daysBeforeArrival(localToday(input.now, input.timeZone), input.checkIn)
  const percent = refundPercentFor(input.tiers, days)
  const paid = BigDecimal.isPositive(input.paid) ? input.paid : Money.zero
  const minor = refundDueMinor(paid, input.currency, percent)
  const refund = Money.fromMinor(minor, input.currency)
  return {
    daysBeforeArrival: days,
    refundPercent: percent,
    refundDueMinor: minor,
    refund,
    fee: BigDecimal.subtract(paid, refund)
  }
}

/** A line a cancel appends to the folio, in the reservation currency. */
export interface CancellationLine {
  readonly kind: "refund" | "cancellation_fee"
  readonly description: string
  readonly amount: Amount
}

/**
 * The folio lines of a cancel: when something was paid, a `refund` line for what is owed back
 * and a `cancellation_fee` line for what the property keeps, so the voided folio balances; a zero part writes
 * no line, and an unpaid reservation writes none.
 */
export const cancellationLines = (paid: Amount, settlement: CancellationSettlement): ReadonlyArray<CancellationLine> => {
  if (!BigDecimal.isPositive(paid)) return []
  const lines: Array<CancellationLine> = []
  if (BigDecimal.isPositive(settlement.refund)) {
    lines.push({
      kind: "refund",
      description: `Refund due on cancellation (${settlement.refundPercent}%)`,
      amount: settlement.refund
    })
  }
  if (BigDecimal.isPositive(settlement.fee)) {
    lines.push({
      kind: "cancellation_fee",
      description: `Cancellation fee (${100 - settlement.refundPercent}% of the amount paid)`,
      amount: settlement.fee
    })
  }
  return lines
}

/** The points a cancel takes back: the stay's net earn (earns less earlier reversals); none when not positive. */
export const pointsToReverse = (netEarned: number): number => (netEarned > 0 ? -netEarned : 0)
