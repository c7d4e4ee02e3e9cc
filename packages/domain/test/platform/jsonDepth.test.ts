import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as JsonDepth from "../../src/platform/JsonDepth.js"

/** A value nested `depth` levels: arrays and objects alternating. */
const nested = (depth: number): unknown => {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value }
  return value
}

/** The nesting depth of a parsed value, the reference the scan must agree with. */
const depthOf = (value: unknown): number => {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf))
  if (value !== null && typeof value === "object") return 1 + Math.max(0, ...Object.values(value).map(depthOf))
  return 0
}

describe("JsonDepth.exceeds", () => {
  it("64 levels pass, 65 do not", () => {
    expect(JsonDepth.exceeds(JSON.stringify(nested(64)))).toBe(false)
    expect(JsonDepth.exceeds(JSON.stringify(nested(65)))).toBe(true)
  })

  it("scans 100,000 levels without recursion", () => {
    expect(JsonDepth.exceeds("[".repeat(100_000) + "]".repeat(100_000))).toBe(true)
    expect(JsonDepth.exceeds("{\"a\":".repeat(100_000))).toBe(true)
  })

  it("brackets inside strings, escaped quotes included, do not count", () => {
    const text = JSON.stringify({ note: "[[[[{{{{\\\"[[[[".repeat(50), list: [[1]] })
    expect(JsonDepth.exceeds(text, 3)).toBe(false)
    expect(JsonDepth.exceeds(text, 2)).toBe(true)
  })

  it("siblings do not add up: depth is nesting, not the number of brackets", () => {
    expect(JsonDepth.exceeds(JSON.stringify(Array.from({ length: 1000 }, () => [[1]])), 3)).toBe(false)
  })

  it("agrees with the depth of any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (value, limit) => {
        const text = JSON.stringify(value)
        expect(JsonDepth.exceeds(text, limit)).toBe(depthOf(value) > limit)
      }),
      { numRuns: 300 }
    )
  })
})
