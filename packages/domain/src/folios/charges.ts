// Charge posting: `POST /reservations/{id}/charges` `{ description, amount, currency,
// revenue_category, service_id?, quantity? }`. `amount` is the unit price in `currency` (its minor units);
// the line is unit price × quantity. Any ISO 4217 currency is accepted: one without a configured rate is
// written with a null exchange rate, which turns the folio's flat figures null.
import * as BigDecimal from "effect/BigDecimal"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { isExpiredHold, type StatusFacts } from "../booking/lifecycle.js"
import { InvalidStatusTransition } from "../errors/BusinessErrors.js"
import * as Money from "../money/Money.js"
import type { Amount } from "../money/Money.js"
import { type Check, fail, ok } from "../rates/checks.js"
import { CurrencyField, DecimalField, IdField, int, RevenueCategory, text } from "../rates/fields.js"

/** An optional key that also accepts `null` (same as absent). */
const optional = <A, I, R>(schema: Schema.Codec<A, I, R>) => Schema.optionalKey(Schema.NullOr(schema))

export const maxChargeQuantity = 99

export const ChargePost = Schema.Struct({
  description: text(1, 200),
  /** The unit price; its precision and range are checked once the currency is known. */
  amount: DecimalField,
  currency: CurrencyField,
  revenue_category: RevenueCategory,
  service_id: optional(IdField),
  quantity: optional(int(1, maxChargeQuantity))
}).annotate({ identifier: "ChargePost" })
export type ChargePost = typeof ChargePost.Type

/** The statuses a charge may be posted on: a live hold, a confirmed or a checked-in reservation. */
export const chargeableStatuses: ReadonlyArray<string> = ["tentative", "confirmed", "checked_in"]

/**
 * Whether a charge may be posted: a live hold, a confirmed or a checked-in stay. An expired hold, a cancelled,
 * checked-out or no-show reservation is 409 `invalid_status_transition`.
 */
export const chargeStep = (facts: StatusFacts, now: Date): Result.Result<void, InvalidStatusTransition> => {
  if (isExpiredHold(facts, now)) {
    return Result.fail(new InvalidStatusTransition({ message: "The hold has expired; charges cannot be posted to it" }))
  }
  if (chargeableStatuses.includes(facts.status)) return Result.void
  return Result.fail(new InvalidStatusTransition({
    message: `Charges are accepted on tentative, confirmed and checked-in reservations; this one is ${
      facts.status.replace("_", " ")
    }`
  }))
}

/**
 * The most a folio's charges in one currency may come to, in its minor units (10^15: ten trillion euros), so
 * that every integer the API answers about the folio (`refund_due_minor`) is exact in JSON.
 */
export const maxFolioChargesMinor = 10n ** 15n

/** Whether charges of `charges` in `currency` fit on one folio. */
export const fitsOnFolio = (charges: Amount, currency: string): boolean =>
  Money.toMinorFloor(charges, currency) <= maxFolioChargesMinor

const mostOnFolio = (currency: string): string => Money.format(Money.fromMinor(maxFolioChargesMinor, currency), currency)

/** Whether a charge line of `amount` fits on a folio whose charges in its currency come to `charged`. */
export const checkFolioCharges = (charged: Amount, amount: Amount, currency: string): Check<void> =>
  fitsOnFolio(BigDecimal.sum(charged, amount), currency)
    ? ok
    : fail("amount", `would take the folio's charges in ${currency} above ${mostOnFolio(currency)}`)

/**
 * Whether a hold's folio, priced at `total`, fits: a long chain of derivations can price a stay far above any
 * one input's bound. Named after the plan, whose pricing is the cause.
 */
export const checkHoldTotal = (total: Amount, currency: string): Check<void> =>
  fitsOnFolio(total, currency)
    ? ok
    : fail("rate_plan_id", `prices this stay above the most one folio holds (${mostOnFolio(currency)} ${currency})`)

/** The charge line's amount: unit price × quantity, rounded half away from zero to the currency's minor units. */
export const chargeLineAmount = (unitPrice: Amount, quantity: number, currency: string): Amount =>
  Money.round(BigDecimal.multiply(unitPrice, BigDecimal.fromBigInt(BigInt(quantity))), currency)
