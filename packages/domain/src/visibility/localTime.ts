// A property's local calendar, with
// Intl only — no host time zone is ever consulted.
import type { IsoDate } from "../pricing/dates.js"

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

/** The wall-clock time in `timeZone` at `epochMs`, expressed as if it were a UTC epoch (ms). */
const wallClock = (epochMs: number, timeZone: string): number => {
  const parts: Record<string, number> = {}
  for (const part of formatterFor(timeZone).formatToParts(new Date(epochMs))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value)
  }
  const wall = new Date(0)
  wall.setUTCFullYear(parts.year, parts.month - 1, parts.day)
  wall.setUTCHours(parts.hour === 24 ? 0 : parts.hour, parts.minute, parts.second, epochMs - Math.floor(epochMs / 1000) * 1000)
  return wall.getTime()
}

const dateOfWall = (wallMs: number): IsoDate => new Date(wallMs).toISOString().slice(0, 10)

/** The property's local date at an instant. */
export const localDate = (instant: Date, timeZone: string): IsoDate => dateOfWall(wallClock(instant.getTime(), timeZone))

/** The property's "today" (booking windows, past check-in, days before arrival). */
export const localToday = (now: Date, timeZone: string): IsoDate => localDate(now, timeZone)

const DAY_MS = 86_400_000

/**
 * The first instant of a local date in `timeZone`. Candidates are local midnight read with the UTC offset
 * in force a day before and a day after; the earliest one that falls on `date` is the start of the day.
 * That also covers zones whose clocks skip midnight (the day then starts at the transition) or repeat it.
 */
export const startOfLocalDay = (date: IsoDate, timeZone: string): Date => {
  const midnight = Date.parse(`${date}T00:00:00Z`)
  const offsets = [midnight - DAY_MS, midnight + DAY_MS].map((at) => wallClock(at, timeZone) - at)
  const candidates = offsets.map((offset) => midnight - offset).filter((at) => localDate(new Date(at), timeZone) === date)
  // Both candidates missing the date cannot happen for real zones (offsets change by hours, not days);
  // fall back to the first candidate rather than fail.
  return new Date(candidates.length === 0 ? midnight - offsets[0] : Math.min(...candidates))
}

