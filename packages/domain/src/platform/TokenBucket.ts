// The token bucket of the rate limits: pure refill arithmetic shared by the in-memory limiter
// and, written out in SQL, by the Postgres one. Time is in epoch milliseconds, handed in by the caller (who
// reads it from `Clock`).

export interface Config {
  /** Tokens a full bucket holds (the burst). */
  readonly capacity: number
  /** Tokens added per second, continuously, up to `capacity`. */
  readonly refillPerSecond: number
}

/** The per-API-key limit: 600 tokens, 10 per second, one per request. */
export const perApiKey: Config = { capacity: 600, refillPerSecond: 10 }

/**
 * The bucket of a key with its own limit of `perMinute` requests (`api_keys.rate_limit`): the burst is a
 * minute's worth, refilled evenly over the minute, like the default's 600 at 10 per second.
 */
export const forApiKey = (perMinute: number | null): Config =>
  perMinute === null ? perApiKey : { capacity: perMinute, refillPerSecond: perMinute / 60 }

/** The name of an API key's bucket is this prefix and the key's id. */
export const keyBucketPrefix = "key:"

export const keyBucket = (apiKeyId: string): string => `${keyBucketPrefix}${apiKeyId}`

/**
 * Failed authentications per client address: a burst of 30 invalid keys, then one every two
 * seconds (30 a minute), so guessing keys is slow while a misconfigured client still sees its 401s.
 */
export const failedAuthPerAddress: Config = { capacity: 30, refillPerSecond: 0.5 }

/** Cost of one request. */
export const requestCost = 1

export interface State {
  /** Tokens in the bucket at `updatedAt` (fractional). */
  readonly tokens: number
  readonly updatedAt: number
}

export interface Decision {
  readonly allowed: boolean
  readonly limit: number
  /** Whole tokens left after this request. */
  readonly remaining: number
  /** When refused: milliseconds until `cost` tokens are back (0 when allowed). */
  readonly retryAfterMillis: number
  /** When refused: the same in whole seconds, at least 1 (the `Retry-After` header); 0 when allowed. */
  readonly retryAfterSeconds: number
}

/** A bucket never seen before is full. */
export const full = (config: Config, now: number): State => ({ tokens: config.capacity, updatedAt: now })

/**
 * The bucket at `now`: the elapsed time's tokens added, capped at the capacity. A clock that went backwards
 * (another process's `now` slightly behind) adds nothing and keeps the later time.
 */
export const refill = (config: Config, state: State, now: number): State => {
  const elapsed = Math.max(0, now - state.updatedAt)
  return {
    tokens: Math.min(config.capacity, state.tokens + (elapsed / 1000) * config.refillPerSecond),
    updatedAt: Math.max(state.updatedAt, now)
  }
}

// Float arithmetic on tenths: 8.999999999 tokens are 9 whole ones.
const epsilon = 1e-9

/** Whole tokens in a bucket holding `tokens`. */
export const wholeTokens = (tokens: number): number => Math.max(0, Math.floor(tokens + epsilon))

/** Milliseconds until a bucket holding `tokens` holds `cost` again. */
export const millisUntil = (config: Config, tokens: number, cost: number = requestCost): number =>
  tokens + epsilon >= cost ? 0 : ((cost - tokens) / config.refillPerSecond) * 1000

/** The decision for a bucket left holding `tokensAfter`, the request `allowed` or not. */
export const decision = (
  config: Config,
  tokensAfter: number,
  allowed: boolean,
  cost: number = requestCost
): Decision => {
  const retryAfterMillis = allowed ? 0 : millisUntil(config, tokensAfter, cost)
  return {
    allowed,
    limit: config.capacity,
    remaining: wholeTokens(tokensAfter),
    retryAfterMillis,
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(retryAfterMillis / 1000 - epsilon))
  }
}

/**
 * One request at `now`: refill, then take `cost` tokens when there are enough. A refused request takes
 * nothing (it does not push the next token further away).
 */
export const take = (
  config: Config,
  state: State | undefined,
  now: number,
  cost: number = requestCost
): { readonly state: State; readonly decision: Decision } => {
  const current = refill(config, state ?? full(config, now), now)
  const allowed = current.tokens + epsilon >= cost
  const next: State = allowed ? { tokens: Math.max(0, current.tokens - cost), updatedAt: current.updatedAt } : current
  return { state: next, decision: decision(config, next.tokens, allowed, cost) }
}
