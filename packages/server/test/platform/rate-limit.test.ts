import { describe, expect, layer } from "@effect/vitest"
import * as SqlClient from "effect/sql/SqlClient"
import * as TokenBucket from "@hotel/domain/platform/TokenBucket"
import * as TokenLease from "@hotel/domain/platform/TokenLease"
import { ApiKeyRepository } from "@hotel/persistence/platform/ApiKeyRepository"
import { RateLimiter } from "@hotel/persistence/platform/RateLimiter"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/testing/TestClock"
import { MissingApiKey } from "@hotel/domain"
import { expectFailure } from "../utils/client.js"
import type { ApiResponse, ErrorBody } from "../utils/http.js"
import { request } from "../utils/http.js"
import { secondServer } from "../utils/processes.js"
import { TestSqlLive } from "../utils/TestDatabase.js"
import { TestApi, TestApiLive, type TestApiService } from "../utils/TestServer.js"

// Rate limits: a token bucket per API key (600, 10 per second) shared by every process,
// its headers on every authenticated response, and the per-address limit on failed authentication.

const header = (res: ApiResponse, name: string) => res.headers.get(name)

/**
 * Sets a key's bucket to `tokens` as of `aheadMs` from now (both processes read real time). A time ahead
 * holds the bucket where it is until then, so the test's own latency cannot refill it.
 */
const setBucket = (api: TestApiService, apiKeyId: string, tokens: number, aheadMs = 0) =>
  api.sql`
    INSERT INTO rate_limit_buckets (bucket, tokens, updated_at)
    VALUES (${`key:${apiKeyId}`}, ${tokens}, ${new Date(Date.now() + aheadMs)})
    ON CONFLICT (bucket) DO UPDATE SET tokens = EXCLUDED.tokens, updated_at = EXCLUDED.updated_at`.pipe(Effect.orDie)

/** The id of `key` (`GET /me`, which takes one of its tokens). */
const meOf = (api: TestApiService, key: string) =>
  Effect.flatMap(api.clientFor(key), (client) => Effect.map(client.me.me(), (me) => me.api_key_id))

// ---------------------------------------------------------------------------------------------------------
// The limiter service on the TestClock, both layers: the arithmetic, exactly.

const limiterSuite = <E>(name: string, live: Layer.Layer<RateLimiter, E>) =>
  layer(live)(name, (it) => {
    it.effect("600 requests at one instant pass, the 601st is refused with Retry-After 1", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const bucket = `key:${globalThis.crypto.randomUUID()}`
        for (let i = 1; i <= 600; i++) {
          const decision = yield* limiter.take(bucket, TokenBucket.perApiKey)
          expect(decision).toMatchObject({ allowed: true, limit: 600, remaining: 600 - i })
        }
        const refused = yield* limiter.take(bucket, TokenBucket.perApiKey)
        expect(refused).toMatchObject({ allowed: false, limit: 600, remaining: 0, retryAfterSeconds: 1 })
        expect(refused.retryAfterMillis).toBeCloseTo(100, 6)
        // A refused request takes nothing: 100 ms later exactly one token is back.
        yield* TestClock.adjust("99 millis")
        expect((yield* limiter.take(bucket, TokenBucket.perApiKey)).allowed).toBe(false)
        yield* TestClock.adjust("1 millis")
        expect(yield* limiter.take(bucket, TokenBucket.perApiKey)).toMatchObject({ allowed: true, remaining: 0 })
        expect((yield* limiter.take(bucket, TokenBucket.perApiKey)).allowed).toBe(false)
        // Refills at 10 per second up to the capacity, never beyond.
        yield* TestClock.adjust("2 seconds")
        expect(yield* limiter.take(bucket, TokenBucket.perApiKey)).toMatchObject({ allowed: true, remaining: 19 })
        yield* TestClock.adjust("10 minutes")
        expect(yield* limiter.take(bucket, TokenBucket.perApiKey)).toMatchObject({ allowed: true, remaining: 599 })
      }), { timeout: 120_000 })

    it.effect("buckets are independent", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const tiny: TokenBucket.Config = { capacity: 1, refillPerSecond: 0.5 }
        expect((yield* limiter.take("key:a", tiny)).allowed).toBe(true)
        expect(yield* limiter.take("key:a", tiny)).toMatchObject({ allowed: false, retryAfterSeconds: 2 })
        expect((yield* limiter.take("key:b", tiny)).allowed).toBe(true)
      }))
  })

describe("RateLimiter", () => {
  limiterSuite("postgres, on the TestClock", RateLimiter.postgres.pipe(Layer.provide(TestSqlLive)))
  limiterSuite(
    "memory, on the TestClock",
    RateLimiter.memory.pipe(Layer.provide(ApiKeyRepository.layer), Layer.provide(TestSqlLive))
  )

  layer(RateLimiter.postgres.pipe(Layer.provideMerge(TestSqlLive)))("postgres under concurrency", (it) => {
    it.effect("20 concurrent requests on a bucket holding 5 tokens: exactly 5 pass", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const sql = yield* SqlClient.SqlClient
        // The TestClock stands still at 0, so no token comes back during the test.
        yield* sql`INSERT INTO rate_limit_buckets (bucket, tokens, updated_at) VALUES ('key:five', 5, ${new Date(0)})`
        const decisions = yield* Effect.all(
          Array.from({ length: 20 }, () => limiter.take("key:five", TokenBucket.perApiKey)),
          { concurrency: "unbounded" }
        )
        expect(decisions.filter((decision) => decision.allowed)).toHaveLength(5)
        expect(decisions.filter((decision) => decision.allowed).map((d) => d.remaining).sort()).toEqual([0, 1, 2, 3, 4])
      }))
  })
  layer(RateLimiter.postgres.pipe(Layer.provideMerge(TestSqlLive)))("postgres, a leased large limit", (it) => {
    it.effect("5,000 a minute: exactly 5,000 pass at one instant, remaining counts down by one, the shared row is leased", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const sql = yield* SqlClient.SqlClient
        const config = TokenBucket.forApiKey(5_000)
        const bucket = `key:${globalThis.crypto.randomUUID()}`
        for (let i = 1; i <= 5_000; i++) {
          const decision = yield* limiter.take(bucket, config)
          if (!decision.allowed || decision.remaining !== 5_000 - i) expect.fail(`request ${i}: ${JSON.stringify(decision)}`)
          if (i === 5) {
            // One lease of 10 taken from the shared bucket, 5 of them spent.
            const [row] = yield* sql<{ tokens: number }>`SELECT tokens FROM rate_limit_buckets WHERE bucket = ${bucket}`
            expect(Number(row?.tokens)).toBe(4_990)
          }
        }
        const refused = yield* limiter.take(bucket, config)
        expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 })
      }), { timeout: 120_000 })

    it.effect("a renewal hands the unspent tokens back like a refill: a full bucket never shows more than the limit", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const sql = yield* SqlClient.SqlClient
        const config = TokenBucket.forApiKey(5_000)
        const bucket = `key:${globalThis.crypto.randomUUID()}`
        for (let i = 0; i < 3; i++) yield* limiter.take(bucket, config)
        // The lease (10, 7 unspent) runs out; a second refills the shared bucket (4,990) past its capacity.
        yield* TestClock.adjust("1 second")
        const renewed = yield* limiter.take(bucket, config)
        expect(renewed).toMatchObject({ allowed: true, limit: 5_000, remaining: 4_999 })
        const [row] = yield* sql<{ tokens: number }>`SELECT tokens FROM rate_limit_buckets WHERE bucket = ${bucket}`
        expect(Number(row?.tokens)).toBe(4_990)
      }))

    it.effect("two processes (two limiters) on one bucket never pass more than the limit together", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const [one, two] = yield* Effect.all([RateLimiter.postgres, RateLimiter.postgres].map((live) =>
          Effect.provide(RateLimiter, Layer.provide(live, Layer.succeed(SqlClient.SqlClient, sql)))))
        const config = TokenBucket.forApiKey(5_000)
        const bucket = `key:${globalThis.crypto.randomUUID()}`
        const decisions = yield* Effect.all(
          Array.from({ length: 5_200 }, (_, i) => (i % 2 === 0 ? one : two).take(bucket, config)),
          { concurrency: 16 }
        )
        const passed = decisions.filter((decision) => decision.allowed).length
        // Never above the limit; below it by at most one lease (10) per limiter still holding one.
        expect(passed).toBeLessThanOrEqual(5_000)
        expect(passed).toBeGreaterThanOrEqual(5_000 - 2 * TokenLease.leaseSize(config))
      }), { timeout: 120_000 })
  })
})

// ---------------------------------------------------------------------------------------------------------
// Through the API, on real time.

layer(TestApiLive, { excludeTestServices: true })("rate limit per API key", (it) => {
  it.effect("every authenticated response carries X-RateLimit-Limit and X-RateLimit-Remaining, errors too", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = yield* api.createKey()
      const first = yield* api.get("/me", { key })
      expect(header(first, "x-ratelimit-limit")).toBe("600")
      expect(header(first, "x-ratelimit-remaining")).toBe("599")
      // Hold the bucket at 100 tokens for a while: each request then takes exactly one.
      yield* setBucket(api, yield* meOf(api, key), 100, 5_000)
      const second = yield* api.get("/me", { key })
      expect(header(second, "x-ratelimit-remaining")).toBe("99")

      const notFound = yield* api.get("/rate-plans/00000000-0000-4000-8000-000000000000", { key })
      expect(notFound.status).toBe(404)
      expect(header(notFound, "x-ratelimit-limit")).toBe("600")
      expect(header(notFound, "x-ratelimit-remaining")).toBe("98")
      const invalid = yield* api.post("/rate-plans", { name: "" }, { key })
      expect(invalid.status).toBe(400)
      expect(header(invalid, "x-ratelimit-limit")).toBe("600")

      const scopeless = yield* api.createKey({ scopes: [] })
      const forbidden = yield* api.get("/property", { key: scopeless })
      expect(forbidden.status).toBe(403)
      expect(header(forbidden, "x-ratelimit-limit")).toBe("600")
      expect(header(forbidden, "x-ratelimit-remaining")).toBe("599")
    }))

  it.effect("unauthenticated responses and the health checks carry no rate-limit headers and take no token", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = yield* api.createKey()
      const id = yield* meOf(api, key)
      yield* setBucket(api, id, 0, 5_000)
      for (const path of ["/health/live", "/health/ready"]) {
        const res = yield* api.get(path, { key })
        expect(res.status).toBe(200)
        expect(header(res, "x-ratelimit-limit")).toBeNull()
      }
      const unauthenticated = yield* api.get("/me", { key: null })
      expect(unauthenticated.status).toBe(401)
      expect(header(unauthenticated, "x-ratelimit-limit")).toBeNull()
    }))

  it.effect("an empty bucket is 429 rate_limited with Retry-After, and the limit headers", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = yield* api.createKey()
      const id = yield* meOf(api, key)
      yield* setBucket(api, id, 0.2, 1_000)
      const res = yield* api.get("/me", { key })
      expect(res.status).toBe(429)
      expect(res.json<ErrorBody>().error).toMatchObject({ type: "rate_limit", code: "rate_limited" })
      expect(header(res, "retry-after")).toBe("1")
      expect(header(res, "x-ratelimit-limit")).toBe("600")
      expect(header(res, "x-ratelimit-remaining")).toBe("0")
      expect(header(res, "cache-control")).toBe("no-store")
      // The limit comes before the scope and the body: a refused request is 429 whatever it asks for.
      const mutation = yield* api.post("/rate-plans", {}, { key })
      expect(mutation.status).toBe(429)
      // From the bucket's time on, a token is back within a tenth of a second.
      yield* Effect.sleep("1200 millis")
      expect(yield* meOf(api, key)).toBe(id)
    }))

  it.effect("a burst: at least 600 requests pass, then 429 with Retry-After 1", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = yield* api.createKey()
      const started = Date.now()
      let passed = 0
      let refused: ApiResponse | undefined
      while (refused === undefined && passed < 2_000) {
        const batch = yield* Effect.all(Array.from({ length: 25 }, () => api.get("/me", { key })), {
          concurrency: "unbounded"
        })
        for (const res of batch) {
          if (res.status === 200) passed++
          else if (res.status === 429) refused ??= res
          else expect.fail(`unexpected ${res.status}: ${res.text}`)
        }
      }
      const elapsedSeconds = (Date.now() - started) / 1000
      expect(passed).toBeGreaterThanOrEqual(600)
      expect(passed).toBeLessThanOrEqual(600 + Math.ceil(elapsedSeconds * 10) + 1)
      expect(refused?.json<ErrorBody>().error.code).toBe("rate_limited")
      expect(refused === undefined ? null : header(refused, "retry-after")).toBe("1")
      expect(refused === undefined ? null : header(refused, "x-ratelimit-remaining")).toBe("0")
    }), { timeout: 120_000 })

  it.effect("the bucket is shared by two API processes on one database", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const other = yield* secondServer
      const key = yield* api.createKey()
      const sendOther = request(other, key)
      const client = yield* api.clientFor(key)
      const started = Date.now()
      for (let i = 0; i < 5; i++) {
        yield* Effect.all(Array.from({ length: 10 }, () => client.me.me()), { concurrency: "unbounded" })
      }
      const viaOther = yield* sendOther("GET", "/me")
      const elapsedSeconds = (Date.now() - started) / 1000
      expect(viaOther.status).toBe(200)
      expect(header(viaOther, "x-ratelimit-limit")).toBe("600")
      // 51 tokens taken (50 here, 1 there), a few back with time; a bucket of its own would say 599.
      const remaining = Number(header(viaOther, "x-ratelimit-remaining"))
      expect(remaining).toBeGreaterThanOrEqual(549)
      expect(remaining).toBeLessThanOrEqual(549 + Math.ceil(elapsedSeconds * 10))

      // Emptied, it refuses in both processes.
      yield* setBucket(api, yield* meOf(api, key), 0, 1_000)
      const [here, there] = yield* Effect.all([api.get("/me", { key }), sendOther("GET", "/me")], {
        concurrency: "unbounded"
      })
      expect(here.status).toBe(429)
      expect(there.status).toBe(429)
      expect(header(there, "retry-after")).toBe("1")
    }).pipe(Effect.scoped), { timeout: 120_000 })
})

// A server of its own: the address it limits is the one every test here connects from.
layer(TestApiLive, { excludeTestServices: true })("failed authentication per address", (it) => {
  it.effect("30 invalid keys are 401, then 429 with Retry-After; a valid key still passes; no key is no guess", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const started = Date.now()
      let unauthorized = 0
      let refused: ApiResponse | undefined
      while (refused === undefined && unauthorized < 100) {
        const res = yield* api.get("/me", { key: `hk_guess_${unauthorized}` })
        if (res.status === 401) {
          expect(res.json<ErrorBody>().error.code).toBe("invalid_api_key")
          unauthorized++
        } else refused = res
      }
      const elapsedSeconds = (Date.now() - started) / 1000
      expect(unauthorized).toBeGreaterThanOrEqual(TokenBucket.failedAuthPerAddress.capacity)
      expect(unauthorized).toBeLessThanOrEqual(30 + Math.ceil(elapsedSeconds * 0.5))
      expect(refused?.status).toBe(429)
      expect(refused?.json<ErrorBody>().error).toMatchObject({ type: "rate_limit", code: "rate_limited" })
      const retryAfter = Number(refused === undefined ? 0 : header(refused, "retry-after"))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(2)
      expect(refused === undefined ? null : header(refused, "x-ratelimit-limit")).toBeNull()

      // Only failures are limited: a valid key from the same address is served at once.
      expect((yield* api.client.me.me()).property_id).toBe(api.property.property_id)
      // No key at all is not a guess.
      const missing = yield* expectFailure(Effect.flatMap(api.clientFor(null), (client) => client.me.me()), MissingApiKey)
      expect(missing.message).toBeTruthy()
    }), { timeout: 60_000 })

  it.effect("a valid key interleaved with 100 invalid ones from the same address is always 200", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const statuses = new Map<number, number>()
      for (let i = 0; i < 100; i++) {
        const [bad, good] = yield* Effect.all([
          api.get("/me", { key: `hk_interleaved_${i}` }),
          api.get("/me")
        ], { concurrency: "unbounded" })
        expect([401, 429]).toContain(bad.status)
        statuses.set(good.status, (statuses.get(good.status) ?? 0) + 1)
      }
      expect(Object.fromEntries(statuses)).toEqual({ 200: 100 })
    }), { timeout: 60_000 })
})
