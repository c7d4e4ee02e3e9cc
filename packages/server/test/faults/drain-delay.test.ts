import * as HttpServer from "effect/http/HttpServer"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { describe, expect, it, layer } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as NetAddress from "effect/net/NetAddress"
import * as TestClock from "effect/testing/TestClock"
import { DrainDelayConfig, DrainingServerLive } from "../../src/runtime/DrainingServer.js"
import { HttpDrain } from "../../src/runtime/TrackedServer.js"
import { attempt, connectOnly } from "../utils/connections.js"

// The drain delay is the Clock's time: on the TestClock a 5-second delay is served through without waiting,
// and the listener is open until the clock has passed it, closed right after. Each answer of the delay says
// `Connection: close`, so a client (a balancer) opens its next connection afresh, to another instance.

const withEnv = (env: Record<string, string>) => ConfigProvider.layer(ConfigProvider.fromEnv({ env }))

/** The production server (`DrainingServerLive`) on a free port, answering every request "served". */
const ServedLive = HttpServer.serve(Effect.succeed(HttpServerResponse.text("served"))).pipe(
  Layer.provideMerge(DrainingServerLive),
  Layer.provide(withEnv({ PORT: "0" }))
)

/**
 * The test clock, counting the sleeps begun on it: a fiber running with `clock` is known to be waiting on the
 * test clock once `begun()` is above 0.
 */
const countingSleeps = TestClock.testClockWith((testClock) =>
  Effect.sync(() => {
    let begun = 0
    const clock: Clock.Clock = {
      currentTimeMillisUnsafe: () => testClock.currentTimeMillisUnsafe(),
      currentTimeMillis: testClock.currentTimeMillis,
      currentTimeNanosUnsafe: () => testClock.currentTimeNanosUnsafe(),
      currentTimeNanos: testClock.currentTimeNanos,
      monotonicTimeNanosUnsafe: () => testClock.monotonicTimeNanosUnsafe(),
      monotonicTimeNanos: testClock.monotonicTimeNanos,
      sleep: (duration) => Effect.suspend(() => {
        begun++
        return testClock.sleep(duration)
      })
    }
    return { clock, begun: () => begun }
  })
)

const isDone = <A>(fiber: Fiber.Fiber<A>) => Effect.sync(() => fiber.pollUnsafe() !== undefined)

/** Moves the clock 25 ms at a time, letting the event loop turn in between, until `fiber` is done. */
const clockUntilDone = <A>(fiber: Fiber.Fiber<A>) =>
  Effect.gen(function*() {
    for (let step = 0; step < 400; step++) {
      if (yield* isDone(fiber)) return
      yield* TestClock.adjust("25 millis")
      yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
    }
    return yield* Effect.die(new Error("the drain did not finish within 10 s of the clock"))
  })

layer(ServedLive)("drain delay on the clock", (it) => {
  it.effect("a stop serves as usual for the whole delay, each answer closing its connection, then refuses connections", () =>
    Effect.gen(function*() {
      const { drain } = yield* HttpDrain
      const { address } = yield* HttpServer.HttpServer
      const baseUrl = `http://127.0.0.1:${NetAddress.isInetAddress(address) ? address.port : 0}`
      const get = attempt(baseUrl, { method: "GET", path: "/", headers: {} })
      expect(yield* get).toMatchObject({ _tag: "Answered", status: 200, headers: { connection: "keep-alive" } })
      const served = { _tag: "Answered", status: 200, body: "served", headers: { connection: "close" } }

      const sleeps = yield* countingSleeps
      const stopping = yield* Effect.forkChild(drain(Duration.seconds(5)).pipe(Effect.provideService(Clock.Clock, sleeps.clock)))
      // The drain is waiting on the clock.
      yield* Effect.repeat(Effect.sync(sleeps.begun), { until: (begun) => begun > 0 })
      expect(yield* get).toMatchObject(served)
      yield* TestClock.adjust("4999 millis")
      expect(yield* get).toMatchObject(served)
      expect(yield* isDone(stopping)).toBe(false)
      yield* TestClock.adjust("1 millis")
      yield* clockUntilDone(stopping)
      expect(yield* connectOnly(baseUrl)).toBe("ECONNREFUSED")
    }))
})

describe("HOTEL_DRAIN_DELAY_MS", () => {
  const read = (value?: string) =>
    DrainDelayConfig.parse(ConfigProvider.fromEnv({ env: value === undefined ? {} : { HOTEL_DRAIN_DELAY_MS: value } }))

  it.effect("5 s when unset; 0 skips the delay; a negative or fractional value is refused with the rule", () =>
    Effect.gen(function*() {
      expect(Duration.toMillis(yield* read())).toBe(5000)
      expect(Duration.toMillis(yield* read("0"))).toBe(0)
      expect(Duration.toMillis(yield* read("250"))).toBe(250)
      expect(String(yield* Effect.flip(read("-1")))).toContain("HOTEL_DRAIN_DELAY_MS must be a whole number of milliseconds, 0 or more")
      expect(String(yield* Effect.flip(read("1.5")))).toContain("HOTEL_DRAIN_DELAY_MS")
    }))
})
