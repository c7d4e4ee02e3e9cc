import type { StoredApiKey } from "@hotel/persistence/platform/ApiKeyRepository"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/**
 * How long a process trusts a key it looked up: a revocation (or a change of the key's limit) reaches every
 * process within this. Expiry is checked on every request against the cached `expires_at`, so it is exact.
 */
export const keyCacheTtl = Duration.seconds(1)

/** Past this many cached keys, expired entries are swept, and all of them when none had expired. */
const maximumEntries = 10_000

/**
 * Keys found by hash, each for `keyCacheTtl`. Only keys that exist are cached: an unknown key is looked up
 * every time (it is a guess, counted by the failed-authentication limit, and a key just created must work
 * at once).
 */
export const makeKeyCache = (lookup: (hash: string) => Effect.Effect<Option.Option<StoredApiKey>>) =>
  Effect.sync(() => {
    const ttl = Duration.toMillis(keyCacheTtl)
    const entries = new Map<string, { readonly key: StoredApiKey; readonly until: number }>()

    const remember = (hash: string, key: StoredApiKey, now: number) => {
      if (entries.size >= maximumEntries) {
        for (const [entry, { until }] of entries) if (until <= now) entries.delete(entry)
        if (entries.size >= maximumEntries) entries.clear()
      }
      entries.set(hash, { key, until: now + ttl })
    }

    return (hash: string): Effect.Effect<Option.Option<StoredApiKey>> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const cached = entries.get(hash)
        if (cached !== undefined && cached.until > now) return Effect.succeed(Option.some(cached.key))
        return Effect.tap(lookup(hash), (found) => {
          if (Option.isSome(found)) remember(hash, found.value, now)
          else entries.delete(hash)
        })
      })
  })
