// A process's lease on a key's bucket while the shared buckets cannot be reached (no primary answers: the
// failover window). The process lets the bucket's requests through from a lease of its own, counted as owed,
// instead of answering them 503; when a primary answers again, what was spent is debited from the shared bucket
// (the settlement). The lease is a fixed share of the bucket's capacity per process and per outage, with no
// refill: each process can let a key through at most that many requests beyond its limit, whatever the outage
// lasts. Spent, the process asks the primary again (and answers 503 while it does not answer).

import type { Config } from "./TokenBucket.js"

/** The share of a bucket's capacity one process may let through while the shared bucket cannot be reached. */
export const outageShare = 0.1

/** The tokens of one process's outage lease on a bucket of this configuration: a tenth of it, at least one. */
export const outageLeaseSize = (config: Config): number => Math.max(1, Math.floor(config.capacity * outageShare))

export interface OutageLease {
  /** Tokens this process may still spend before the shared bucket is reached again. */
  readonly left: number
  /** Tokens spent from the lease and not yet debited from the shared bucket. */
  readonly owed: number
}

/** The lease a bucket gets when its first request finds the shared bucket out of reach. */
export const opened = (config: Config): OutageLease => ({ left: outageLeaseSize(config), owed: 0 })

/** One request's token from the lease; none when it is spent. */
export const spend = (lease: OutageLease): OutageLease | undefined =>
  lease.left < 1 ? undefined : { left: lease.left - 1, owed: lease.owed + 1 }

/**
 * The lease after `paid` of its owed tokens were debited from the shared bucket: none once nothing is owed
 * (the outage is over for the bucket, and a later one opens a new lease); else the rest still owed, with what is
 * left to spend unchanged (requests let through while the settlement ran count against the same lease).
 */
export const settled = (lease: OutageLease, paid: number): OutageLease | undefined =>
  lease.owed - paid <= 0 ? undefined : { left: lease.left, owed: lease.owed - paid }
