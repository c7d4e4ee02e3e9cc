import { describe, expect, it } from "@effect/vitest"
import { measureEveryMs, standbyUsable } from "../../src/database/ReplicaLag.js"

// When a standby may serve a read: its measured lag, plus the age of the measurement, within the bound.

describe("replica lag", () => {
  const max = 5_000

  it("a standby measured fresh and close behind serves; one measured too far behind does not", () => {
    expect(standbyUsable({ at: 10_000, lagMs: 0 }, 10_200, max)).toBe(true)
    expect(standbyUsable({ at: 10_000, lagMs: 4_800 }, 10_200, max)).toBe(true)
    expect(standbyUsable({ at: 10_000, lagMs: 4_900 }, 10_200, max)).toBe(false)
    expect(standbyUsable({ at: 10_000, lagMs: 60_000 }, 10_000, max)).toBe(false)
  })

  it("not measured yet, not measurable (unreachable), or not measured for longer than the bound: the primary answers", () => {
    expect(standbyUsable(undefined, 10_000, max)).toBe(false)
    expect(standbyUsable({ at: 10_000, lagMs: null }, 10_000, max)).toBe(false)
    expect(standbyUsable({ at: 10_000, lagMs: 0 }, 15_001, max)).toBe(false)
  })

  it("measured often enough that a reading's age stays a small part of the bound", () => {
    expect(measureEveryMs(5_000)).toBe(1_000)
    expect(measureEveryMs(1_000)).toBe(250)
    expect(measureEveryMs(50)).toBe(100)
  })
})
