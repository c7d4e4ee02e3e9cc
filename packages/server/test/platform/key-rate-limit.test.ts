import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { ApiResponse, ErrorBody } from "../utils/http.js"
import { hotel } from "../utils/processes.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// A key with its own limit (`hotel key create --rate-limit N`, stored on the key): only the operator sets it,
// per key, so the contract's 600 a minute stays every other key's limit.

const header = (res: ApiResponse, name: string) => res.headers.get(name)

const createKey = (propertyId: string, ...extra: ReadonlyArray<string>) =>
  hotel("key", "create", "--property", propertyId, "--scopes", "rates:read", ...extra)

layer(TestApiLive, { excludeTestServices: true })("a key's own rate limit", (it) => {
  it.effect("a key created with --rate-limit 5 has a bucket of 5: headers say so, the 6th request is 429", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const created = yield* createKey(api.property.property_id, "--rate-limit", "5")
      expect(created.code, created.stderr).toBe(0)
      const { key } = JSON.parse(created.stdout) as { readonly key: string }
      for (let i = 1; i <= 5; i++) {
        const res = yield* api.get("/me", { key })
        expect(res.status).toBe(200)
        expect(header(res, "x-ratelimit-limit")).toBe("5")
        expect(header(res, "x-ratelimit-remaining")).toBe(String(5 - i))
      }
      // Refilled at 5 a minute: the next token is 12 s away.
      const refused = yield* api.get("/me", { key })
      expect(refused.status).toBe(429)
      expect(refused.json<ErrorBody>().error).toMatchObject({ type: "rate_limit", code: "rate_limited" })
      expect(header(refused, "x-ratelimit-limit")).toBe("5")
      expect(Number(header(refused, "retry-after"))).toBeGreaterThanOrEqual(11)

      // Another key of the same property keeps the default, untouched by the first key's bucket.
      const ordinary = yield* api.get("/me", { key: api.key })
      expect(header(ordinary, "x-ratelimit-limit")).toBe("600")
    }), { timeout: 120_000 })

  it.effect("a key above the default: X-RateLimit-Limit shows its own limit", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const created = yield* createKey(api.property.property_id, "--rate-limit", "100000")
      expect(created.code, created.stderr).toBe(0)
      const { key } = JSON.parse(created.stdout) as { readonly key: string }
      const res = yield* api.get("/me", { key })
      expect(header(res, "x-ratelimit-limit")).toBe("100000")
      expect(header(res, "x-ratelimit-remaining")).toBe("99999")
    }), { timeout: 120_000 })

  it.effect("--rate-limit must be a whole number from 1 to 1000000", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      for (const value of ["0", "1000001", "-3"]) {
        const run = yield* createKey(api.property.property_id, "--rate-limit", value)
        expect(run.code).not.toBe(0)
        const body = JSON.parse(run.stderr) as { readonly error: { readonly message: string; readonly param?: string } }
        expect(body.error).toMatchObject({ param: "--rate-limit" })
        expect(body.error.message).toContain("--rate-limit: must be a whole number from 1 to 1000000")
      }
    }), { timeout: 120_000 })
})
