import { describe, expect, it } from "@effect/vitest"
import * as FastCheck from "fast-check"
import { addDays, fromEpochDay, nightsOf, stayNightOf, stayNightsOf, toEpochDay, weekdayOf } from "../../src/quotes/dates.js"

// The calendar arithmetic is integer-only; `Date` (UTC) is the reference it must agree with.
const DAY_MS = 86_400_000
const viaDate = (epochDay: number) => new Date(epochDay * DAY_MS).toISOString().slice(0, 10)
const weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

// 0001-01-01 to 9999-12-31.
const anyEpochDay = FastCheck.integer({ min: -719162, max: 2932896 })

describe("pricing dates without Date", () => {
  it("fromEpochDay and toEpochDay agree with Date and invert each other", () => {
    FastCheck.assert(FastCheck.property(anyEpochDay, (day) => {
      expect(fromEpochDay(day)).toBe(viaDate(day))
      expect(toEpochDay(fromEpochDay(day))).toBe(day)
    }), { numRuns: 5_000 })
  })

  it("weekdayOf agrees with Date#getUTCDay", () => {
    FastCheck.assert(FastCheck.property(anyEpochDay, (day) => {
      expect(weekdayOf(viaDate(day))).toBe(weekdays[new Date(day * DAY_MS).getUTCDay()])
    }), { numRuns: 5_000 })
  })

  it("stayNightsOf is nightsOf with each night's day number and weekday (what the engine prices by)", () => {
    const stayOf = FastCheck.tuple(FastCheck.integer({ min: -800, max: 2932000 }), FastCheck.integer({ min: -2, max: 40 }))
    FastCheck.assert(FastCheck.property(stayOf, ([start, length]) => {
      const checkIn = fromEpochDay(start)
      const checkOut = fromEpochDay(start + length)
      const nights = stayNightsOf(checkIn, checkOut)
      expect(nights.map((night) => night.date)).toEqual(nightsOf(checkIn, checkOut))
      for (const night of nights) {
        expect(night).toEqual({ date: night.date, epochDay: toEpochDay(night.date), weekday: weekdayOf(night.date) })
        expect(stayNightOf(night.date)).toEqual(night)
      }
    }), { numRuns: 1_000 })
  })

  it("known dates: epoch, leap days, century rules, month ends", () => {
    expect(toEpochDay("1970-01-01")).toBe(0)
    expect(fromEpochDay(-1)).toBe("1969-12-31")
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29")
    expect(addDays("2100-02-28", 1)).toBe("2100-03-01")
    expect(addDays("2000-02-28", 1)).toBe("2000-02-29")
    expect(addDays("2031-12-31", 1)).toBe("2032-01-01")
    expect(weekdayOf("2031-03-10")).toBe("mon")
    expect(nightsOf("2031-02-27", "2031-03-02")).toEqual(["2031-02-27", "2031-02-28", "2031-03-01"])
  })
})
