import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

/**
 * How long a process trusts what it read of a property's row (its base currency): a `hotel property import`
 * that changes it reaches every process within this.
 */
export const propertyCacheTtl = Duration.seconds(1)

/** Past this many entries, expired ones are swept, and all of them when none had expired. */
const maximumEntries = 10_000

/** Values by key, each trusted for `ttl` from when it was set (times are epoch ms read from the `Clock`). */
export interface TtlMap<A> {
  readonly get: (key: string, now: number) => A | undefined
  readonly set: (key: string, value: A, now: number) => void
  readonly delete: (key: string) => void
}

/** The process's own map of values trusted for `ttl`, bounded by `maximumEntries`. */
export const makeTtlMap = <A>(ttl: Duration.Input): Effect.Effect<TtlMap<A>> =>
  Effect.sync(() => {
    const millis = Duration.toMillis(ttl)
    const entries = new Map<string, { readonly value: A; readonly until: number }>()
    return {
      get: (key, now) => {
        const cached = entries.get(key)
        return cached !== undefined && cached.until > now ? cached.value : undefined
      },
      set: (key, value, now) => {
        if (entries.size >= maximumEntries) {
          for (const [entry, { until }] of entries) if (until <= now) entries.delete(entry)
          if (entries.size >= maximumEntries) entries.clear()
        }
        entries.set(key, { value, until: now + millis })
      },
      delete: (key) => {
        entries.delete(key)
      }
    }
  })

/**
 * `lookup` memoised per key for `ttl` on the `Clock` (the process's own copy: every process reads the
 * database at most once per key and `ttl`). Failures are not cached, nor values `keep` refuses (a lookup
 * that found nothing, say, which must be asked again next time).
 */
export const makeTtlCache = <A, E, R>(
  ttl: Duration.Input,
  lookup: (key: string) => Effect.Effect<A, E, R>,
  keep: (value: A) => boolean = () => true
) =>
  Effect.map(makeTtlMap<A>(ttl), (entries) => (key: string): Effect.Effect<A, E, R> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const cached = entries.get(key, now)
      if (cached !== undefined) return Effect.succeed(cached)
      return Effect.tap(lookup(key), (value) =>
        Effect.sync(() => {
          if (keep(value)) entries.set(key, value, now)
          else entries.delete(key)
        }))
    }))
