// Calendar dates as `YYYY-MM-DD` text (decisions 2). All arithmetic is on UTC midnights, so no host time
// zone or daylight-saving change can shift a date; "today" in a property's zone lives in visibility/localTime.

export type IsoDate = string

export type Weekday = "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun"

const DAY_MS = 86_400_000
// Index = Date#getUTCDay (0 = Sunday).
const WEEKDAYS: ReadonlyArray<Weekday> = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export const toEpochDay = (date: IsoDate): number => {
  const [year, month, day] = date.split("-").map(Number)
  const utc = new Date(0)
  // setUTCFullYear, unlike Date.UTC, does not remap years 0-99 to the 1900s.
  utc.setUTCFullYear(year, month - 1, day)
  return Math.round(utc.getTime() / DAY_MS)
}

export const fromEpochDay = (epochDay: number): IsoDate => new Date(epochDay * DAY_MS).toISOString().slice(0, 10)

export const addDays = (date: IsoDate, days: number): IsoDate => fromEpochDay(toEpochDay(date) + days)

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: IsoDate, to: IsoDate): number => toEpochDay(to) - toEpochDay(from)

/** The nights of a stay: `checkIn` up to the night before `checkOut`. Empty when checkOut <= checkIn. */
export const nightsOf = (checkIn: IsoDate, checkOut: IsoDate): ReadonlyArray<IsoDate> => {
  const start = toEpochDay(checkIn)
  const count = Math.max(0, toEpochDay(checkOut) - start)
  return Array.from({ length: count }, (_, i) => fromEpochDay(start + i))
}

export const weekdayOf = (date: IsoDate): Weekday => WEEKDAYS[new Date(toEpochDay(date) * DAY_MS).getUTCDay()]

/** A range that covers nights like a stay: `start` up to the night before `end` (seasonal intervals). */
export const coversNight = (range: { readonly startDate: IsoDate; readonly endDate: IsoDate }, date: IsoDate): boolean =>
  range.startDate <= date && date < range.endDate

/** Inclusive window of dates (booking, stay, promo validity); a missing bound is open. */
export const inWindow = (
  date: IsoDate,
  start: IsoDate | null | undefined,
  end: IsoDate | null | undefined
): boolean => (start == null || start <= date) && (end == null || date <= end)
