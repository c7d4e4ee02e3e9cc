import { describe, expect, it, layer } from "@effect/vitest"
import { retryAfterSeconds } from "@hotel/http/platform/Maintenance"
import * as Effect from "effect/Effect"
import type { ApiResponse, ErrorBody } from "../utils/http.js"
import { request } from "../utils/http.js"
import { hotel, secondServer } from "../utils/processes.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// Maintenance windows: `hotel maintenance start [--until TS]` / `stop` reach every API
// process within a second; during the window everything but the health checks is 503 `maintenance_mode`.

type Send = (method: string, path: string, options?: { key?: string | null }) => Effect.Effect<ApiResponse>

/** Polls `GET /me` until `done` holds; returns how long it took (ms). Fails after `within` ms. */
const until = (send: Send, done: (res: ApiResponse) => boolean, within: number) =>
  Effect.gen(function*() {
    const started = Date.now()
    for (;;) {
      const res = yield* send("GET", "/me")
      if (done(res)) return Date.now() - started
      if (Date.now() - started > within) return yield* Effect.die(new Error(`still ${res.status} after ${within} ms`))
      yield* Effect.sleep("50 millis")
    }
  })

const inMaintenance = (res: ApiResponse) => res.status === 503
const serving = (res: ApiResponse) => res.status === 200

const cli = (...args: ReadonlyArray<string>) =>
  Effect.flatMap(hotel(...args), (result) => {
    expect(result.code, result.stderr).toBe(0)
    return Effect.succeed(JSON.parse(result.stdout) as Record<string, unknown>)
  })

describe("Retry-After of a maintenance window", () => {
  const window = (end: string | null) => ({
    active: true,
    startedAt: new Date("2027-01-01T00:00:00Z"),
    estimatedEnd: end === null ? null : new Date(end)
  })
  const now = Date.parse("2027-01-01T00:10:00Z")
  it("is the whole seconds until estimated_end, at least 1", () => {
    expect(retryAfterSeconds(window("2027-01-01T00:12:00Z"), now)).toBe(120)
    expect(retryAfterSeconds(window("2027-01-01T00:10:00.300Z"), now)).toBe(1)
    expect(retryAfterSeconds(window("2027-01-01T00:11:00.001Z"), now)).toBe(61)
  })
  it("is 60 seconds without an end, or once the end has passed", () => {
    expect(retryAfterSeconds(window(null), now)).toBe(60)
    expect(retryAfterSeconds(window("2027-01-01T00:09:00Z"), now)).toBe(60)
  })
})

layer(TestApiLive, { excludeTestServices: true })("maintenance", (it) => {
  it.effect("start and stop reach every process within a second; only the health checks answer meanwhile", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const other = yield* secondServer
      const here: Send = api.request
      const there: Send = request(other, api.key)
      expect((yield* here("GET", "/me")).status).toBe(200)
      expect((yield* there("GET", "/me")).status).toBe(200)

      const end = new Date(Date.now() + 10 * 60_000)
      end.setUTCMilliseconds(0)
      const started = yield* cli("maintenance", "start", "--until", end.toISOString())
      expect(started).toMatchObject({ active: true, estimated_end: end.toISOString() })
      // Each process reads the window at most every 750 ms: both see it within a second (the bound leaves
      // room for the polling requests' own latency on a busy machine).
      const [seenHere, seenThere] = yield* Effect.all(
        [until(here, inMaintenance, 3_000), until(there, inMaintenance, 3_000)],
        { concurrency: "unbounded" }
      )
      expect(seenHere).toBeLessThan(1_500)
      expect(seenThere).toBeLessThan(1_500)

      for (const send of [here, there]) {
        const res = yield* send("GET", "/me")
        expect(res.status).toBe(503)
        const { error } = res.json<ErrorBody>()
        expect(error).toMatchObject({ type: "server", code: "maintenance_mode", estimated_end: end.toISOString() })
        expect(error.request_id).toBe(res.headers.get("x-request-id"))
        expect(error).not.toHaveProperty("param")
        const retryAfter = Number(res.headers.get("retry-after"))
        const expected = Math.ceil((end.getTime() - Date.now()) / 1000)
        expect(retryAfter).toBeGreaterThanOrEqual(expected - 2)
        expect(retryAfter).toBeLessThanOrEqual(expected + 1)
        expect(res.headers.get("cache-control")).toBe("no-store")

        // Authenticated or not, known route or not, mutation or read: 503.
        for (
          const [method, path, key] of [
            ["GET", "/me", null],
            ["GET", "/me", "hk_not_a_key"],
            ["GET", "/no-such-route", null],
            ["DELETE", "/me", undefined],
            ["POST", "/rate-plans", undefined],
            ["GET", "/openapi.json", null]
          ] as const
        ) {
          const blocked = yield* send(method, path, key === undefined ? {} : { key })
          expect(blocked.status, `${method} ${path}`).toBe(503)
          expect(blocked.json<ErrorBody>().error.code).toBe("maintenance_mode")
        }
        // The health checks answer.
        for (const path of ["/health/live", "/health/ready"]) {
          const health = yield* send("GET", path, { key: null })
          expect(health.status, path).toBe(200)
        }
      }

      const stopped = yield* cli("maintenance", "stop")
      expect(stopped).toMatchObject({ active: false })
      const [backHere, backThere] = yield* Effect.all(
        [until(here, serving, 3_000), until(there, serving, 3_000)],
        { concurrency: "unbounded" }
      )
      expect(backHere).toBeLessThan(1_500)
      expect(backThere).toBeLessThan(1_500)
    }).pipe(
      Effect.ensuring(Effect.ignore(hotel("maintenance", "stop"))),
      Effect.scoped
    ), { timeout: 120_000 })

  it.effect("without --until: Retry-After 60 and no estimated_end", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* cli("maintenance", "start")
      yield* until(api.request, inMaintenance, 3_000)
      const res = yield* api.get("/me")
      expect(res.status).toBe(503)
      expect(res.headers.get("retry-after")).toBe("60")
      expect(res.json<ErrorBody>().error).not.toHaveProperty("estimated_end")
      yield* cli("maintenance", "stop")
      yield* until(api.request, serving, 3_000)
    }).pipe(Effect.ensuring(Effect.ignore(hotel("maintenance", "stop")))), { timeout: 60_000 })
})
