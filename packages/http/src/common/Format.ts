import { Money } from "@hotel/domain"

/** Stored NUMERIC text → wire money in the currency's minor units. */
export const money = (value: string, currency: string): string => Money.format(Money.fromDb(value), currency)

export const moneyOrNull = (value: string | null, currency: string): string | null =>
  value === null ? null : money(value, currency)

/** Stored NUMERIC text → plain decimal text without trailing zeros (rates, percentages). */
export const decimal = (value: string): string => Money.toDb(Money.fromDb(value))

/**
 * A percentage figure that shares a field with money (`single_guest_discount`): at least two decimals, like
 * the field's `"0.00"` default, more when it has them (`"12.50"`, `"12.345"`).
 */
export const percentFigure = (value: string): string => {
  const text = decimal(value)
  const point = text.indexOf(".")
  const decimals = point < 0 ? 0 : text.length - point - 1
  return decimals >= 2 ? text : `${point < 0 ? `${text}.` : text}${"0".repeat(2 - decimals)}`
}

export const timestamp = (value: Date): string => value.toISOString()

export const timestampOrNull = (value: Date | null): string | null => (value === null ? null : value.toISOString())
