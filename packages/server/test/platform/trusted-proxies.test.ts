import { expect, layer } from "@effect/vitest"
import { ClientAddress, parseTrustedProxies } from "@hotel/http/platform/ClientAddress"
import { PlatformLive } from "@hotel/persistence/platform/Platform"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Layer from "effect/Layer"
import * as Http from "node:http"
import { HttpLive, servicesWith } from "../../src/main.js"
import { makeTestApiLive, TestApi } from "../utils/TestServer.js"

// Failed authentication is limited per client address. Behind a trusted proxy (`HOTEL_TRUSTED_PROXIES`)
// that is the address in `X-Forwarded-For`; from any other peer the header is ignored. The server here
// trusts 127.0.0.1 only; requests sent from 127.0.0.2 (also loopback) come from an untrusted peer.

const trusted = Result.getOrThrow(parseTrustedProxies("127.0.0.1, 10.0.0.0/8"))

const ProxiedApiLive = makeTestApiLive(
  HttpLive.pipe(Layer.provide(ClientAddress.trusting(trusted)), Layer.provideMerge(servicesWith(PlatformLive)))
)

/** `GET /me` with `key`, from the local address `from`, with an optional `X-Forwarded-For`. */
const me = (baseUrl: string, key: string, from: string, forwardedFor?: string) =>
  Effect.callback<number>((resume) => {
    const url = new URL(baseUrl)
    const headers: Record<string, string> = { authorization: `Bearer ${key}` }
    if (forwardedFor !== undefined) headers["x-forwarded-for"] = forwardedFor
    const req = Http.request({ host: url.hostname, port: url.port, path: "/me", localAddress: from, headers }, (res) => {
      res.resume()
      res.on("end", () => resume(Effect.succeed(res.statusCode ?? 0)))
    })
    req.on("error", (error) => resume(Effect.die(error)))
    req.end()
  })

/** Sends invalid keys until the first 429 (at most `max`); returns how many were 401 before it. */
const guessUntilRefused = (send: (key: string) => Effect.Effect<number>, max: number) =>
  Effect.gen(function*() {
    for (let i = 0; i < max; i++) {
      const status = yield* send(`hk_guess_${i}`)
      if (status === 429) return i
      expect(status).toBe(401)
    }
    return max
  })

layer(ProxiedApiLive, { excludeTestServices: true })("failed authentication behind trusted proxies", (it) => {
  it.effect("two clients behind the proxy are limited separately; a valid key behind it still passes", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const first = yield* guessUntilRefused((key) => me(api.baseUrl, key, "127.0.0.1", "203.0.113.7"), 60)
      expect(first).toBeGreaterThanOrEqual(30)
      expect(first).toBeLessThan(60)
      // Another client of the same proxy has its own count; a second proxy hop (10.x) is skipped.
      expect(yield* me(api.baseUrl, "hk_other", "127.0.0.1", "203.0.113.8")).toBe(401)
      expect(yield* me(api.baseUrl, "hk_other", "127.0.0.1", "203.0.113.9, 10.1.2.3")).toBe(401)
      // The limited client itself, with a valid key, is served.
      expect(yield* me(api.baseUrl, api.key, "127.0.0.1", "203.0.113.7")).toBe(200)
      // A client cannot choose its address by prepending to the header: the proxy's appended hop counts.
      expect(yield* me(api.baseUrl, "hk_spoof", "127.0.0.1", "198.51.100.1, 203.0.113.7")).toBe(429)
    }), { timeout: 60_000 })

  it.effect("an untrusted peer's X-Forwarded-For is ignored: its guesses count against its own address", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      let i = 0
      const refusedAfter = yield* guessUntilRefused(
        (key) => me(api.baseUrl, key, "127.0.0.2", `198.51.100.${i++ % 250}`),
        60
      )
      expect(refusedAfter).toBeGreaterThanOrEqual(30)
      expect(refusedAfter).toBeLessThan(60)
      expect(yield* me(api.baseUrl, api.key, "127.0.0.2", "198.51.100.1")).toBe(200)
    }), { timeout: 60_000 })
})

layer(Layer.empty)("HOTEL_TRUSTED_PROXIES", (it) => {
  it("accepts addresses and CIDR ranges of both families, and names an entry that is neither", () => {
    expect(Result.isSuccess(parseTrustedProxies(""))).toBe(true)
    expect(Result.isSuccess(parseTrustedProxies("10.0.0.1, 192.168.0.0/16, ::1, fd00::/8"))).toBe(true)
    expect(parseTrustedProxies("10.0.0.1, proxy.local")).toEqual(Result.fail("proxy.local"))
    expect(parseTrustedProxies("10.0.0.0/33")).toEqual(Result.fail("10.0.0.0/33"))
    expect(parseTrustedProxies("10.0.0.0/")).toEqual(Result.fail("10.0.0.0/"))
  })
})
