import { describe, expect, it } from "@effect/vitest"
import * as TokenBucket from "@hotel/domain/platform/TokenBucket"
import * as TokenLease from "@hotel/domain/platform/TokenLease"

describe("TokenLease", () => {
  it("the contract's 600 a minute is never leased; large limits lease 0.2%", () => {
    expect(TokenLease.leaseSize(TokenBucket.perApiKey)).toBe(0)
    expect(TokenLease.leaseSize(TokenBucket.forApiKey(4_999))).toBe(0)
    expect(TokenLease.leaseSize(TokenBucket.forApiKey(5_000))).toBe(10)
    expect(TokenLease.leaseSize(TokenBucket.forApiKey(1_000_000))).toBe(2_000)
  })

  it("a renewed lease spends this request's token; remaining is the shared bucket plus what is left", () => {
    const { lease, remaining } = TokenLease.renewed(10, 4_990, 1_000)
    expect(lease).toEqual({ left: 9, sharedTokens: 4_990, renewAt: 1_000 + TokenLease.leaseMillis })
    expect(remaining).toBe(4_999)
    const next = TokenLease.spend(lease, 1_500)
    expect(next).toEqual({ lease: { ...lease, left: 8 }, remaining: 4_998 })
  })

  it("a spent or expired lease is renewed; the renewal gives the unspent tokens back", () => {
    const lease: TokenLease.Lease = { left: 0, sharedTokens: 100, renewAt: 2_000 }
    expect(TokenLease.spend(lease, 1_000)).toBeUndefined()
    expect(TokenLease.spend({ ...lease, left: 3 }, 2_000)).toBeUndefined()
    expect(TokenLease.spend(undefined, 0)).toBeUndefined()
    expect(TokenLease.unspent(undefined)).toBe(0)
    expect(TokenLease.unspent({ ...lease, left: 3 })).toBe(3)
    expect(TokenLease.unspent(lease)).toBe(0)
  })

  it("spending a whole lease takes exactly its size from the limit", () => {
    let state = TokenLease.renewed(20, 980, 0)
    let served = 1
    for (let next = TokenLease.spend(state.lease, 1); next !== undefined; next = TokenLease.spend(state.lease, 1)) {
      state = next
      served++
    }
    expect(served).toBe(20)
    expect(state.remaining).toBe(980)
  })
})
