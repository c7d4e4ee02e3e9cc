// Conversion of amounts configured in the property's base currency (fixed taxes, service prices) into the
// stay's currency. `rate_to_base` is base units per ONE unit of the currency, so
// base → stay divides by the stay currency's rate. Nothing is rounded here: the caller rounds the line.
import * as BigDecimal from "effect/BigDecimal"
import type { Amount } from "../money/Money.js"
import type { PricingProperty } from "./model.js"

const ONE = BigDecimal.fromBigInt(1n)

/**
 * Thrown (a defect, not a business error) when a stay is priced in a currency with no configured rate and
 * a base-currency amount must be converted. The write path only accepts a plan currency that is the base
 * currency or a configured one, so reaching this means the configuration changed under a plan.
 */
export class MissingExchangeRate extends Error {
  constructor(readonly currency: string) {
    super(`no exchange rate configured for ${currency}`)
    this.name = "MissingExchangeRate"
  }
}

/** Base units per one unit of `currency`: 1 for the base currency, undefined when not configured. */
export const rateToBase = (property: PricingProperty, currency: string): Amount | undefined =>
  currency === property.baseCurrency
    ? ONE
    : property.exchangeRates.find((rate) => rate.currency === currency && BigDecimal.isPositive(rate.rateToBase))
      ?.rateToBase

/** A base-currency amount expressed in `currency`, exact to 100 significant digits. */
export const fromBase = (property: PricingProperty, amount: Amount, currency: string): Amount => {
  if (currency === property.baseCurrency) return amount
  const rate = rateToBase(property, currency)
  if (rate === undefined) throw new MissingExchangeRate(currency)
  return BigDecimal.divideUnsafe(amount, rate)
}
