import * as CurrencyCodes from "currency-codes"
import * as Option from "effect/Option"

// The ISO table lookup is a linear search; every formatted amount asks, so answers are memoised.
const digitsCache = new Map<string, Option.Option<number>>()

/** ISO 4217 minor-unit digits of a currency code, if the code is an ISO 4217 currency. */
export const minorUnits = (currency: string): Option.Option<number> => {
  const cached = digitsCache.get(currency)
  if (cached !== undefined) return cached
  const digits = Option.fromNullishOr(CurrencyCodes.code(currency)).pipe(Option.map((entry) => entry.digits))
  // Only codes that exist are kept, so arbitrary input cannot grow the cache without bound.
  if (Option.isSome(digits)) digitsCache.set(currency, digits)
  return digits
}

export const isCurrency = (currency: string): boolean =>
  /^[A-Z]{3}$/.test(currency) && Option.isSome(minorUnits(currency))

// Every amount rounded or formatted asks for its currency's digits: a plain number per known code.
const digitsByCode = new Map<string, number>()

/** Digits of a currency already known to be valid (validated on the way in); 2 for anything unknown. */
export const digitsOf = (currency: string): number => {
  const cached = digitsByCode.get(currency)
  if (cached !== undefined) return cached
  const digits = minorUnits(currency)
  if (Option.isNone(digits)) return 2
  digitsByCode.set(currency, digits.value)
  return digits.value
}
