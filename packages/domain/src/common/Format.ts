import * as Money from "../money/Money.js"

// Stored values as the API writes them, for every representation of a resource (a `GET`, an event's data, an
// entity tag), so the persistence views and the HTTP presenters cannot format a figure two ways.

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

/** `single_guest_discount`, as its type says: a percentage figure, or money in the plan's currency. */
export const discountFigure = (
  row: { readonly single_guest_discount: string; readonly single_guest_discount_type: string; readonly currency: string }
): string =>
  row.single_guest_discount_type === "percent"
    ? percentFigure(row.single_guest_discount)
    : money(row.single_guest_discount, row.currency)
