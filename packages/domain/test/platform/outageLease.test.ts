import { describe, expect, it } from "@effect/vitest"
import * as OutageLease from "@hotel/domain/platform/OutageLease"
import * as TokenBucket from "@hotel/domain/platform/TokenBucket"

describe("OutageLease", () => {
  it("a tenth of the bucket's capacity, at least one token", () => {
    expect(OutageLease.outageLeaseSize(TokenBucket.perApiKey)).toBe(60)
    expect(OutageLease.outageLeaseSize(TokenBucket.forApiKey(40))).toBe(4)
    expect(OutageLease.outageLeaseSize(TokenBucket.forApiKey(600_000))).toBe(60_000)
    expect(OutageLease.outageLeaseSize(TokenBucket.forApiKey(5))).toBe(1)
    expect(OutageLease.outageLeaseSize(TokenBucket.failedAuthPerAddress)).toBe(3)
  })

  it("lets exactly its size through, each token owed, then nothing more", () => {
    let lease: OutageLease.OutageLease = OutageLease.opened(TokenBucket.forApiKey(40))
    let served = 0
    for (let next = OutageLease.spend(lease); next !== undefined; next = OutageLease.spend(lease)) {
      lease = next
      served++
    }
    expect(served).toBe(4)
    expect(lease).toEqual({ left: 0, owed: 4 })
  })

  it("settled in full it is over; in part, the rest stays owed and the tokens left stay spent", () => {
    const lease: OutageLease.OutageLease = { left: 1, owed: 3 }
    expect(OutageLease.settled(lease, 3)).toBeUndefined()
    expect(OutageLease.settled(lease, 2)).toEqual({ left: 1, owed: 1 })
  })
})
