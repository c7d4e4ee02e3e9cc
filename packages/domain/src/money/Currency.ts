import * as CurrencyCodes from "currency-codes"
import * as Option from "effect/Option"

/** ISO 4217 minor-unit digits of a currency code, if the code is an ISO 4217 currency. */
export const minorUnits = (currency: string): Option.Option<number> =>
  Option.fromNullable(CurrencyCodes.code(currency)).pipe(Option.map((entry) => entry.digits))

export const isCurrency = (currency: string): boolean =>
  /^[A-Z]{3}$/.test(currency) && Option.isSome(minorUnits(currency))

/** Digits of a currency already known to be valid (validated on the way in); 2 for anything unknown. */
export const digitsOf = (currency: string): number => Option.getOrElse(minorUnits(currency), () => 2)
