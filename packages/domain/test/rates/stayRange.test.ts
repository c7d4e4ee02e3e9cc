import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { addDays, coversNight, daysBetween, inWindow, nightsOf } from "../../src/quotes/dates.js"
import { coversSomeNight, stayInWindow } from "../../src/rates/visibility/stayRange.js"

// The end-comparisons agree with walking every night of the stay, for any stay (empty ones included), any
// window (open ends included) and any range.
const day = fc.integer({ min: 0, max: 60 }).map((n) => addDays("2031-02-20", n))
const optionalDay = fc.option(day, { nil: null })

describe("stay range checks", () => {
  it("every night in the window ⇔ both ends of the stay are", () =>
    fc.assert(fc.property(day, day, optionalDay, optionalDay, (checkIn, checkOut, start, end) => {
      const walked = nightsOf(checkIn, checkOut).every((night) => inWindow(night, start, end))
      expect(stayInWindow({ checkIn, checkOut }, daysBetween(checkIn, checkOut), start, end)).toBe(walked)
    }), { numRuns: 2000 }))

  it("some night covered by a range ⇔ the range and the stay overlap", () =>
    fc.assert(fc.property(day, day, day, day, (checkIn, checkOut, startDate, endDate) => {
      const range = { startDate, endDate }
      const walked = nightsOf(checkIn, checkOut).some((night) => coversNight(range, night))
      expect(coversSomeNight(range, { checkIn, checkOut })).toBe(walked)
    }), { numRuns: 2000 }))
})
