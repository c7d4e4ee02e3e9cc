import * as SqlClient from "effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import * as TokenBucket from "@hotel/domain/platform/TokenBucket"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as TestClock from "effect/testing/TestClock"
import { ApiKeyRepository, hashKey } from "../../src/platform/ApiKeyRepository.js"
import { RateLimiter } from "../../src/platform/RateLimiter.js"
import { TestDatabase } from "../utils/TestDatabase.js"

// `RateLimiter.admit` on Postgres: the key lookup that takes the request's token in the same statement, and
// takes it only when the separate `take` would have been asked for it (a usable key, a limit not leased).

const TestLayer = Layer.mergeAll(RateLimiter.postgres, ApiKeyRepository.layer).pipe(
  Layer.provideMerge(TestDatabase.layer())
)

interface KeyRow {
  readonly rateLimit?: number
  readonly revoked?: boolean
  /** Epoch ms on the TestClock. */
  readonly expiresAt?: number
}

/** A key of a new property, written straight to the table; answers its hash and id. */
const key = (row: KeyRow = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const code = `A-${globalThis.crypto.randomUUID().slice(0, 8)}`
    const [property] = yield* sql<{ id: string }>`
      INSERT INTO properties (code, name, timezone, base_currency)
      VALUES (${code}, 'Admission test', 'Europe/Lisbon', 'EUR') RETURNING id`
    const hash = hashKey(`secret-${code}`)
    const [created] = yield* sql<{ id: string }>`
      INSERT INTO api_keys (property_id, key_hash, scopes, context, rate_limit, revoked_at, expires_at)
      VALUES (${property.id}, ${hash}, ${["reservations:read"]}::text[], 'back_office', ${row.rateLimit ?? null},
              ${row.revoked === true ? new Date(0) : null},
              ${row.expiresAt === undefined ? null : new Date(row.expiresAt)})
      RETURNING id`
    return { hash, id: created.id }
  }).pipe(Effect.orDie)

const admit = (hash: string) => Effect.flatMap(RateLimiter, (limiter) => limiter.admit(hash))

const tokensOf = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ tokens: number }>`SELECT tokens FROM rate_limit_buckets WHERE bucket = ${TokenBucket.keyBucket(id)}`).pipe(
      Effect.orDie,
      Effect.map((rows) => rows.map((row) => Number(row.tokens)))
    )

describe("RateLimiter.admit (postgres)", () => {
  layer(TestLayer)((it) => {
    it.effect("a usable key with the default limit: found, and one token taken from its bucket", () =>
      Effect.gen(function*() {
        const { hash, id } = yield* key()
        const first = yield* admit(hash)
        expect(Option.map(first, (a) => a.stored.key.id)).toEqual(Option.some(id))
        expect(Option.flatMap(first, (a) => a.decision)).toEqual(Option.some(
          TokenBucket.decision(TokenBucket.perApiKey, 599, true)
        ))
        const second = yield* admit(hash)
        expect(Option.flatMap(second, (a) => a.decision).pipe(Option.map((d) => d.remaining))).toEqual(Option.some(598))
        expect(yield* tokensOf(id)).toEqual([598])
      }))

    it.effect("a key's own small limit: its bucket, refilled at its own rate, refuses when empty", () =>
      Effect.gen(function*() {
        const { hash } = yield* key({ rateLimit: 2 })
        const decisions = []
        for (let i = 0; i < 3; i++) decisions.push(Option.flatMap(yield* admit(hash), (a) => a.decision))
        expect(decisions.map(Option.map((d) => [d.allowed, d.remaining, d.limit]))).toEqual([
          Option.some([true, 1, 2]),
          Option.some([true, 0, 2]),
          Option.some([false, 0, 2])
        ])
        expect(Option.map(decisions[2] ?? Option.none(), (d) => d.retryAfterSeconds)).toEqual(Option.some(30))
        // 2 a minute: one token back after 30 seconds.
        yield* TestClock.adjust("30 seconds")
        const later = Option.flatMap(yield* admit(hash), (a) => a.decision)
        expect(Option.map(later, (d) => [d.allowed, d.remaining])).toEqual(Option.some([true, 0]))
      }))

    it.effect("revoked, expired or leased keys are found but take no token; an unknown hash finds nothing", () =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const revoked = yield* key({ revoked: true })
        const expired = yield* key({ expiresAt: now })
        const leased = yield* key({ rateLimit: 5000 })
        const justUnderLeases = yield* key({ rateLimit: 4999 })
        for (const { hash, id } of [revoked, expired, leased]) {
          const found = yield* admit(hash)
          expect(Option.map(found, (a) => [a.stored.key.id, Option.isNone(a.decision)])).toEqual(Option.some([id, true]))
          expect(yield* tokensOf(id)).toEqual([])
        }
        const small = Option.flatMap(yield* admit(justUnderLeases.hash), (a) => a.decision)
        expect(Option.map(small, (d) => d.remaining)).toEqual(Option.some(4998))
        expect(yield* admit(hashKey("no such key"))).toEqual(Option.none())
      }))
  })
})
