// A process's lease on a shared token bucket: for a key with a large limit, one process takes a
// small block of tokens from the shared bucket in one statement and spends them from memory, instead of one
// statement per request. Tokens are spent when leased, so leasing can only make a key's limit stricter,
// never looser: at any moment each process holds at most `size` tokens that no other process can spend.

import type { Config } from "./TokenBucket.js"
import { wholeTokens } from "./TokenBucket.js"

/** Leases are for limits where a block of 0.2% of the capacity is at least this many tokens. */
export const minimumLeaseSize = 10

/** A lease is at most this share of the capacity: the tolerance one process adds to the shared limit. */
export const leaseShare = 0.002

/** How long a lease's figures are trusted before it is renewed (its unspent tokens go back then). */
export const leaseMillis = 1_000

/**
 * The tokens one lease takes for a bucket of this configuration; 0 when the limit is too small to lease
 * (the default 600 a minute: every request is then decided by the shared bucket alone, exactly).
 */
export const leaseSize = (config: Config): number => {
  const size = Math.floor(config.capacity * leaseShare)
  return size >= minimumLeaseSize ? size : 0
}

export interface Lease {
  /** Leased tokens not yet spent. */
  readonly left: number
  /** The shared bucket's tokens just after the lease was taken. */
  readonly sharedTokens: number
  /** Epoch ms after which the lease is renewed. */
  readonly renewAt: number
}

/** One request spent from a lease still valid at `now`, with the `remaining` to show; none when it must be renewed. */
export const spend = (
  lease: Lease | undefined,
  now: number
): { readonly lease: Lease; readonly remaining: number } | undefined => {
  if (lease === undefined || lease.left < 1 || lease.renewAt <= now) return undefined
  const next = { ...lease, left: lease.left - 1 }
  return { lease: next, remaining: wholeTokens(next.sharedTokens + next.left) }
}

/**
 * The old lease's unspent tokens, handed back to the shared bucket by the renewal's own statement. They go
 * back like a refill, capped at the capacity: netting them off the new lease instead would let a bucket
 * already full hold a whole budget besides the leased tokens (and show more remaining than the limit).
 */
export const unspent = (old: Lease | undefined): number => Math.max(0, Math.floor(old?.left ?? 0))

/** The lease after a granted renewal, already spending this request's token. */
export const renewed = (
  size: number,
  sharedTokens: number,
  now: number
): { readonly lease: Lease; readonly remaining: number } => {
  const lease: Lease = { left: size - 1, sharedTokens, renewAt: now + leaseMillis }
  return { lease, remaining: wholeTokens(sharedTokens + lease.left) }
}
