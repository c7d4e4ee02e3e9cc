import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as TokenBucket from "../../src/platform/TokenBucket.js"

const { perApiKey } = TokenBucket

/** Takes one token at each of `times` (ms), threading the state; returns the decisions. */
const run = (config: TokenBucket.Config, times: ReadonlyArray<number>) => {
  let state: TokenBucket.State | undefined
  return times.map((now) => {
    const result = TokenBucket.take(config, state, now)
    state = result.state
    return result.decision
  })
}

describe("TokenBucket", () => {
  it("a new bucket is full: 600 requests at one instant pass, the 601st is refused for 100 ms", () => {
    const decisions = run(perApiKey, Array.from({ length: 601 }, () => 0))
    expect(decisions.slice(0, 600).every((d) => d.allowed)).toBe(true)
    expect(decisions.slice(0, 600).map((d) => d.remaining)).toEqual(Array.from({ length: 600 }, (_, i) => 599 - i))
    expect(decisions[600]).toEqual({
      allowed: false,
      limit: 600,
      remaining: 0,
      retryAfterMillis: 100,
      retryAfterSeconds: 1
    })
  })

  it("refills 10 tokens a second, continuously, up to the capacity", () => {
    const empty: TokenBucket.State = { tokens: 0, updatedAt: 0 }
    expect(TokenBucket.refill(perApiKey, empty, 100).tokens).toBeCloseTo(1, 9)
    expect(TokenBucket.refill(perApiKey, empty, 1_550).tokens).toBeCloseTo(15.5, 9)
    expect(TokenBucket.refill(perApiKey, empty, 60_000).tokens).toBe(600)
    expect(TokenBucket.refill(perApiKey, empty, 3_600_000).tokens).toBe(600)
  })

  it("a clock behind the bucket's adds nothing and keeps the later time", () => {
    const state: TokenBucket.State = { tokens: 5, updatedAt: 10_000 }
    expect(TokenBucket.refill(perApiKey, state, 9_000)).toEqual(state)
  })

  it("a refused request takes nothing", () => {
    const state: TokenBucket.State = { tokens: 0.5, updatedAt: 0 }
    const refused = TokenBucket.take(perApiKey, state, 0)
    expect(refused.decision.allowed).toBe(false)
    expect(refused.state.tokens).toBe(0.5)
    expect(refused.decision.retryAfterMillis).toBeCloseTo(50, 9)
    expect(refused.decision.retryAfterSeconds).toBe(1)
    expect(TokenBucket.take(perApiKey, refused.state, 50).decision.allowed).toBe(true)
  })

  it("Retry-After is whole seconds, at least 1: a slower bucket waits longer", () => {
    expect(TokenBucket.take(TokenBucket.failedAuthPerAddress, { tokens: 0, updatedAt: 0 }, 0).decision)
      .toMatchObject({ allowed: false, retryAfterMillis: 2_000, retryAfterSeconds: 2 })
    expect(TokenBucket.take(TokenBucket.failedAuthPerAddress, { tokens: 0.9, updatedAt: 0 }, 0).decision)
      .toMatchObject({ allowed: false, retryAfterSeconds: 1 })
  })

  it("tenths add up to whole tokens despite floating point", () => {
    // 0.1 s steps from empty: after ten of them exactly one token is there.
    let state: TokenBucket.State = { tokens: 0, updatedAt: 0 }
    for (let t = 10; t <= 100; t += 10) state = TokenBucket.refill(perApiKey, state, t)
    const taken = TokenBucket.take(perApiKey, state, 100)
    expect(taken.decision.allowed).toBe(true)
    expect(taken.decision.remaining).toBe(0)
    expect(TokenBucket.wholeTokens(8.9999999999)).toBe(9)
  })

  it("over any timeline, what passes is at most the capacity plus the refill of the elapsed time", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 2_000 }), (gaps) => {
        const times = gaps.reduce<Array<number>>((acc, gap) => [...acc, (acc[acc.length - 1] ?? 0) + gap], [])
        const decisions = run(perApiKey, times)
        const elapsed = (times[times.length - 1] ?? 0) - (times[0] ?? 0)
        const passed = decisions.filter((d) => d.allowed).length
        const refilled = Math.floor((elapsed / 1000) * perApiKey.refillPerSecond)
        expect(passed).toBeLessThanOrEqual(perApiKey.capacity + refilled + 1)
        for (const d of decisions) {
          expect(d.remaining).toBeGreaterThanOrEqual(0)
          expect(d.remaining).toBeLessThanOrEqual(perApiKey.capacity)
          expect(d.allowed ? d.retryAfterSeconds === 0 : d.retryAfterSeconds >= 1).toBe(true)
        }
      }),
      { numRuns: 200 }
    )
  })

  it("requests spaced at the refill rate always pass once the burst is spent", () => {
    const times = [...Array.from({ length: 600 }, () => 0), ...Array.from({ length: 100 }, (_, i) => (i + 1) * 100)]
    expect(run(perApiKey, times).every((d) => d.allowed)).toBe(true)
  })
})
