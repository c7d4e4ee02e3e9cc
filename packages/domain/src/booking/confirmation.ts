// The decisions of `POST /holds/{id}/confirm` once the hold is loaded: the
// payment the confirm records (checked against what the caller asserted) and what the stay earns in loyalty.
import * as BigDecimal from "effect/BigDecimal"
import * as Result from "effect/Result"
import { AmountMismatch, CurrencyMismatch } from "../errors/BusinessErrors.js"
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"
import { loyaltyPoints, parsePaymentAmount } from "./settlement.js"

/** What the caller asserted about the payment; each part optional. */
export interface PaymentAssertion {
  /** As sent; compared case-insensitively with the reservation currency. */
  readonly paymentCurrency: string | null
  /** As sent (a number or a decimal string), already known to parse. */
  readonly paymentAmount: number | string | null
}

/**
 * The payment a confirm records: the amount still due, in the reservation currency. A `payment_currency` other
 * than the reservation's is 400 `currency_mismatch` (checked first); a `payment_amount` other than the amount due
 * is 400 `amount_mismatch`. Absent assertions assert nothing.
 */
export const confirmPayment = (
  due: { readonly amount: Amount; readonly currency: string },
  assertion: PaymentAssertion,
  /**
   * Whose amount due it is, for the messages: a hold's folio, or a booking's folios together (their total, which
   * exceeds the booking's `total` when charges were posted on its rooms, so the message never calls it that).
   */
  what: "folio" | "booking" = "folio"
): Result.Result<Amount, CurrencyMismatch | AmountMismatch> => {
  if (assertion.paymentCurrency !== null && assertion.paymentCurrency.toUpperCase() !== due.currency) {
    return Result.fail(
      new CurrencyMismatch({
        message: `payment_currency ${assertion.paymentCurrency} differs from the ${what === "folio" ? "reservation" : "booking"} currency ${due.currency}`,
        param: "payment_currency"
      })
    )
  }
  const asserted = assertion.paymentAmount === null ? undefined : parsePaymentAmount(assertion.paymentAmount)
  if (asserted !== undefined && !BigDecimal.equals(asserted, due.amount)) {
    const total = `${Money.format(due.amount, due.currency)} ${due.currency}`
    return Result.fail(
      new AmountMismatch({
        message: `payment_amount ${String(assertion.paymentAmount)} differs from the ${
          what === "folio" ? `folio total ${total}` : `folios' total ${total} (what the booking's folios say is due)`
        }`,
        param: "payment_amount"
      })
    )
  }
  return Result.succeed(due.amount)
}

/**
 * What a confirmed stay does to the guest's loyalty: a USD stay earns `perUsd` points per whole
 * USD of room revenue (nothing to write when that is 0); a stay in any other currency earns nothing and is
 * recorded as a skipped earn.
 */
export type ConfirmEarn =
  | { readonly _tag: "Earn"; readonly points: number }
  | { readonly _tag: "Skipped" }
  | { readonly _tag: "None" }

export const earnOnConfirm = (currency: string, roomRevenue: Amount, perUsd: number): ConfirmEarn => {
  if (currency !== "USD") return { _tag: "Skipped" }
  const points = loyaltyPoints(roomRevenue, perUsd)
  return points > 0 ? { _tag: "Earn", points } : { _tag: "None" }
}
