import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { localDate, startOfLocalDay } from "../../src/rates/visibility/localTime.js"

// The property's calendar against `Intl`'s own parts, for instants from 1970 to 2999 in zones with DST,
// half-hour and quarter-hour offsets, and days that start at a transition.
const zones = ["Europe/Lisbon", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe", "America/Santiago", "Pacific/Apia", "UTC"]

const reference = (instant: Date, timeZone: string): string => {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
    .formatToParts(instant)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ""
  return `${part("year")}-${part("month")}-${part("day")}`
}

describe("a property's local calendar", () => {
  it("localDate is the zone's calendar date of the instant", () =>
    fc.assert(fc.property(
      fc.integer({ min: 0, max: Date.parse("2999-12-31T00:00:00Z") }),
      fc.constantFrom(...zones),
      (ms, zone) => {
        expect(localDate(new Date(ms), zone)).toBe(reference(new Date(ms), zone))
      }
    ), { numRuns: 3000 }))

  it("startOfLocalDay is the first instant of that local date", () =>
    fc.assert(fc.property(
      fc.integer({ min: Date.parse("2000-01-02T00:00:00Z"), max: Date.parse("2999-12-30T00:00:00Z") }),
      fc.constantFrom(...zones),
      (ms, zone) => {
        const date = localDate(new Date(ms), zone)
        const start = startOfLocalDay(date, zone)
        expect(localDate(start, zone)).toBe(date)
        expect(localDate(new Date(start.getTime() - 1), zone) < date).toBe(true)
      }
    ), { numRuns: 1000 }))

  it("startOfLocalDay answers a remembered day as a fresh instant, whatever the caller did with the last", () => {
    const first = startOfLocalDay("2031-03-30", "Europe/Lisbon")
    expect(first.toISOString()).toBe("2031-03-30T00:00:00.000Z")
    first.setTime(0)
    const again = startOfLocalDay("2031-03-30", "Europe/Lisbon")
    expect(again.toISOString()).toBe("2031-03-30T00:00:00.000Z")
    expect(again).not.toBe(startOfLocalDay("2031-03-30", "Europe/Lisbon"))
    // The same date elsewhere is another day.
    expect(startOfLocalDay("2031-03-30", "Asia/Kolkata").toISOString()).toBe("2031-03-29T18:30:00.000Z")
  })
})
