import { Money } from "@hotel/domain"

/** Stored NUMERIC text → wire money in the currency's minor units. */
export const money = (value: string, currency: string): string => Money.format(Money.fromDb(value), currency)

export const moneyOrNull = (value: string | null, currency: string): string | null =>
  value === null ? null : money(value, currency)

/** Stored NUMERIC text → plain decimal text without trailing zeros (rates, percentages). */
export const decimal = (value: string): string => Money.toDb(Money.fromDb(value))

export const timestamp = (value: Date): string => value.toISOString()

export const timestampOrNull = (value: Date | null): string | null => (value === null ? null : value.toISOString())
