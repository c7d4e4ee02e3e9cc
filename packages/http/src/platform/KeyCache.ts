import type { StoredApiKey } from "@hotel/persistence/platform/ApiKeyRepository"
import { makeTtlMap } from "@hotel/persistence/platform/TtlCache"
import * as Duration from "effect/Duration"

/**
 * How long a process trusts a key it looked up: a revocation (or a change of the key's limit) reaches every
 * process within this. Expiry is checked on every request against the cached `expires_at`, so it is exact.
 */
export const keyCacheTtl = Duration.seconds(1)

/**
 * Keys found by hash, each for `keyCacheTtl`. Only keys that exist are cached: an unknown key is looked up
 * every time (it is a guess, counted by the failed-authentication limit, and a key just created must work
 * at once).
 */
export const makeKeyCache = makeTtlMap<StoredApiKey>(keyCacheTtl)
