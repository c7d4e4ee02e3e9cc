// Calendar dates as `YYYY-MM-DD` text. All arithmetic is on UTC midnights, so no host time
// zone or daylight-saving change can shift a date; "today" in a property's zone lives in visibility/localTime.

export type IsoDate = string

export type Weekday = "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun"

// Index = days since 1970-01-01 (a Thursday) modulo 7.
const WEEKDAYS: ReadonlyArray<Weekday> = ["thu", "fri", "sat", "sun", "mon", "tue", "wed"]

// Integer calendar arithmetic (the proleptic Gregorian calendar in 400-year eras of 146097 days): a quote
// converts every night of every plan, and no `Date` is made for it.

/** Days since 1970-01-01 of a year, month (1-12) and day. */
export const epochDayOf = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146097 + dayOfEra - 719468
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export const toEpochDay = (date: IsoDate): number =>
  epochDayOf(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)))

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n))

/** The `YYYY-MM-DD` date of a day since 1970-01-01 (years 0 to 9999). */
export const fromEpochDay = (epochDay: number): IsoDate => {
  const z = epochDay + 719468
  const era = Math.floor(z / 146097)
  const dayOfEra = z - era * 146097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const mp = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  return `${String(year).padStart(4, "0")}-${pad2(month)}-${pad2(day)}`
}

export const addDays = (date: IsoDate, days: number): IsoDate => fromEpochDay(toEpochDay(date) + days)

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: IsoDate, to: IsoDate): number => toEpochDay(to) - toEpochDay(from)

/** The nights of a stay: `checkIn` up to the night before `checkOut`. Empty when checkOut <= checkIn. */
export const nightsOf = (checkIn: IsoDate, checkOut: IsoDate): ReadonlyArray<IsoDate> => {
  const start = toEpochDay(checkIn)
  const count = Math.max(0, toEpochDay(checkOut) - start)
  return Array.from({ length: count }, (_, i) => fromEpochDay(start + i))
}

/** The weekday of a day since 1970-01-01. */
export const weekdayOfEpochDay = (epochDay: number): Weekday => WEEKDAYS[((epochDay % 7) + 7) % 7]

/**
 * A night of a stay with its day number and weekday worked out once: every plan quoted for the stay prices
 * the same nights, so the engine keys and prices them by `epochDay` and keeps `date` for the output.
 */
export interface StayNight {
  readonly date: IsoDate
  readonly epochDay: number
  readonly weekday: Weekday
}

const stayNightAt = (epochDay: number): StayNight => ({
  date: fromEpochDay(epochDay),
  epochDay,
  weekday: weekdayOfEpochDay(epochDay)
})

export const stayNightOf = (date: IsoDate): StayNight => {
  const epochDay = toEpochDay(date)
  return { date, epochDay, weekday: weekdayOfEpochDay(epochDay) }
}

/** `nightsOf`, each night with its day number and weekday. */
export const stayNightsOf = (checkIn: IsoDate, checkOut: IsoDate): ReadonlyArray<StayNight> => {
  const start = toEpochDay(checkIn)
  const count = Math.max(0, toEpochDay(checkOut) - start)
  return Array.from({ length: count }, (_, i) => stayNightAt(start + i))
}

export const weekdayOf = (date: IsoDate): Weekday => weekdayOfEpochDay(toEpochDay(date))

/** A range that covers nights like a stay: `start` up to the night before `end` (seasonal intervals). */
export const coversNight = (range: { readonly startDate: IsoDate; readonly endDate: IsoDate }, date: IsoDate): boolean =>
  range.startDate <= date && date < range.endDate

/** Inclusive window of dates (booking, stay, promo validity); a missing bound is open. */
export const inWindow = (
  date: IsoDate,
  start: IsoDate | null | undefined,
  end: IsoDate | null | undefined
): boolean => (start == null || start <= date) && (end == null || date <= end)
