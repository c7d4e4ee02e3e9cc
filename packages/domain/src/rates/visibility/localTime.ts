// A property's local calendar, with
// Intl only — no host time zone is ever consulted.
import type { IsoDate } from "../../quotes/dates.js"

const formatters = new Map<string, Intl.DateTimeFormat>()

const formatterFor = (timeZone: string): Intl.DateTimeFormat => {
  let formatter = formatters.get(timeZone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit"
    })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

// `en-US` with two-digit fields and a 24-hour cycle formats as "MM/DD/YYYY, HH:mm:ss" for years 1000 to 9999
// (every date the API accepts); reading that string is half the cost of `formatToParts`, which stays the
// answer for anything else.
const WALL = /^(\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/

const fieldsOf = (formatter: Intl.DateTimeFormat, date: Date): ReadonlyArray<number> => {
  const match = WALL.exec(formatter.format(date))
  if (match !== null) return match.slice(1).map(Number)
  const parts: Record<string, number> = {}
  for (const part of formatter.formatToParts(date)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value)
  }
  return [parts.month, parts.day, parts.year, parts.hour, parts.minute, parts.second]
}

/** The wall-clock time in `timeZone` at `epochMs`, expressed as if it were a UTC epoch (ms). */
const wallClock = (epochMs: number, timeZone: string): number => {
  const [month, day, year, hour, minute, second] = fieldsOf(formatterFor(timeZone), new Date(epochMs))
  const wall = new Date(0)
  wall.setUTCFullYear(year, month - 1, day)
  wall.setUTCHours(hour === 24 ? 0 : hour, minute, second, epochMs - Math.floor(epochMs / 1000) * 1000)
  return wall.getTime()
}

const dateOfWall = (wallMs: number): IsoDate => new Date(wallMs).toISOString().slice(0, 10)

/** The property's local date at an instant. */
export const localDate = (instant: Date, timeZone: string): IsoDate => dateOfWall(wallClock(instant.getTime(), timeZone))

/** The property's "today" (booking windows, past check-in, days before arrival). */
export const localToday = (now: Date, timeZone: string): IsoDate => localDate(now, timeZone)

const DAY_MS = 86_400_000

// A start of day never changes for a zone (only a new tz database could move it, and that means a new
// process), and every quote asks for the same few: each plan's cancellation terms, on the same arrival. Four
// `Intl` formats each, so they are remembered, up to a bound.
const startsOfDays = new Map<string, number>()
const maxRememberedStarts = 4096

/**
 * The first instant of a local date in `timeZone`. Candidates are local midnight read with the UTC offset
 * in force a day before and a day after; the earliest one that falls on `date` is the start of the day.
 * That also covers zones whose clocks skip midnight (the day then starts at the transition) or repeat it.
 */
export const startOfLocalDay = (date: IsoDate, timeZone: string): Date => {
  const key = `${timeZone} ${date}`
  const known = startsOfDays.get(key)
  if (known !== undefined) return new Date(known)
  if (startsOfDays.size >= maxRememberedStarts) startsOfDays.clear()
  const start = computeStartOfLocalDay(date, timeZone)
  startsOfDays.set(key, start.getTime())
  return start
}

const computeStartOfLocalDay = (date: IsoDate, timeZone: string): Date => {
  const midnight = Date.parse(`${date}T00:00:00Z`)
  const offsets = [midnight - DAY_MS, midnight + DAY_MS].map((at) => wallClock(at, timeZone) - at)
  const candidates = offsets.map((offset) => midnight - offset).filter((at) => localDate(new Date(at), timeZone) === date)
  // Both candidates missing the date cannot happen for real zones (offsets change by hours, not days);
  // fall back to the first candidate rather than fail.
  return new Date(candidates.length === 0 ? midnight - offsets[0] : Math.min(...candidates))
}

