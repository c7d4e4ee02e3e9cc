import { describe, expect, it } from "@effect/vitest"
import { canonicalJson, entityTagOf, ifMatchAccepts, ifNoneMatchMatches } from "../../src/events/EntityTag.js"

describe("canonicalJson", () => {
  it("writes what JSON.stringify writes, with the keys of every object sorted", () => {
    const value = {
      b: 1,
      a: [{ z: new Date(0), y: undefined, "é": 1, Z: 2, _: 3 }, null, undefined],
      c: "line\u2028\"quoted\"",
      d: { toJSON: () => ({ q: 1, p: 2 }) },
      n: -0
    }
    expect(canonicalJson(value)).toBe(
      "{\"a\":[{\"Z\":2,\"_\":3,\"z\":\"1970-01-01T00:00:00.000Z\",\"é\":1},null,null],\"b\":1," +
        "\"c\":\"line\u2028\\\"quoted\\\"\",\"d\":{\"p\":2,\"q\":1},\"n\":0}"
    )
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)))
  })

  it("refuses a circular value, as JSON.stringify does", () => {
    const circular: Record<string, unknown> = {}
    circular["self"] = circular
    expect(() => canonicalJson(circular)).toThrow(TypeError)
  })
})

describe("entityTagOf", () => {
  it("is the same for equal representations whatever the order of their keys, and differs when a value does", () => {
    const tag = entityTagOf({ id: "r1", total: { amount: "10.00", currency: "EUR" } })
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{32}"$/)
    expect(entityTagOf({ total: { currency: "EUR", amount: "10.00" }, id: "r1" })).toBe(tag)
    expect(entityTagOf({ id: "r1", total: { amount: "10.01", currency: "EUR" } })).not.toBe(tag)
  })

  it("If-Match compares strongly, If-None-Match weakly, and * matches any current tag", () => {
    const tag = entityTagOf({ id: "r1" })
    expect(ifMatchAccepts(`"other", ${tag}`, tag)).toBe(true)
    expect(ifMatchAccepts(`W/${tag}`, tag)).toBe(false)
    expect(ifMatchAccepts("*", tag)).toBe(true)
    expect(ifNoneMatchMatches(`W/${tag}`, tag)).toBe(true)
    expect(ifNoneMatchMatches("\"other\"", tag)).toBe(false)
  })
})
