import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Schedule from "effect/Schedule"
import { execFileSync } from "node:child_process"
import * as net from "node:net"
import { isAlive } from "@hotel/persistence/database/EmbeddedPostgres"
import { freePort } from "../../../persistence/test/utils/freePort.js"
import { hotelWith, serveProcessWith } from "../utils/processes.js"
import { TestApiLive } from "../utils/TestServer.js"

// `PROCESSES=N`: `hotel serve` (the built bundle, as the image runs it) starts N serving processes on one
// port and one database, watches them, and stops them all on SIGTERM.

/** A port `p` with `p + 1` free too (for the metrics of two processes). */
const twoFreePorts = Effect.gen(function*() {
  for (;;) {
    const port = yield* freePort()
    const next = yield* Effect.async<boolean>((resume) => {
      const probe = net.createServer()
      probe.once("error", () => resume(Effect.succeed(false)))
      probe.listen(port + 1, "127.0.0.1", () => probe.close(() => resume(Effect.succeed(true))))
    })
    if (next) return port
  }
})

/** How many requests to `route` the process behind `metricsPort` has answered. */
const answered = (metricsPort: number, route: string) =>
  Effect.promise(() => fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((res) => res.text())).pipe(
    Effect.map((text) =>
      text.split("\n")
        .filter((line) => line.startsWith("http_requests_total{") && line.includes(`route="${route}"`))
        .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0)
    )
  )

/** A request on a connection of its own, so the primary hands each to the next process; 0 when refused. */
const onNewConnection = (url: string) =>
  Effect.promise(() => fetch(url, { headers: { connection: "close" } }).then((res) => res.status, () => 0))

/**
 * Waits (up to 60 s) until the primary has logged `count` serving processes listening: the API's port answers as
 * soon as one of them listens, and a process killed before it listens is a failed start, not a replacement.
 */
const listening = (output: () => string, count: number) =>
  Effect.retry(
    Effect.filterOrFail(
      Effect.sync(() => (output().match(/Serving process \d+ \(pid \d+\) is listening/g) ?? []).length),
      (n) => n >= count,
      () => `fewer than ${count} processes listening`
    ),
    Schedule.spaced("100 millis").pipe(Schedule.upTo("60 seconds"))
  )

/** The pids of the processes `pid` started. */
const childrenOf = (pid: number): ReadonlyArray<number> => {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).trim().split("\n").map(Number)
  } catch {
    return []
  }
}

layer(TestApiLive, { timeout: "240 seconds", excludeTestServices: true })("PROCESSES", (it) => {
  it.scoped("two processes answer on one port, each counts on its own metrics port; SIGTERM stops both, in-flight answered", () =>
    Effect.gen(function*() {
      const metricsPort = yield* twoFreePorts
      const server = yield* serveProcessWith({ PROCESSES: "2", METRICS_PORT: String(metricsPort) })
      yield* listening(server.output, 2)
      expect(childrenOf(server.pid)).toHaveLength(2)
      const statuses = yield* Effect.forEach(
        Array.from({ length: 40 }, () => `${server.baseUrl}/health/live`),
        onNewConnection,
        { concurrency: 4 }
      )
      expect(statuses.every((status) => status === 200)).toBe(true)
      const first = yield* answered(metricsPort, "/health/live")
      const second = yield* answered(metricsPort + 1, "/health/live")
      expect(first + second).toBe(40)
      expect(first).toBeGreaterThan(0)
      expect(second).toBeGreaterThan(0)

      // SIGTERM to the primary alone (a supervisor's `kill <pid>`): the processes drain (a request is answered
      // or, once they stopped listening, refused; none fails), then all of them are gone.
      const inFlight = yield* Effect.fork(Effect.forEach(
        Array.from({ length: 30 }, () => `${server.baseUrl}/openapi.json`),
        onNewConnection,
        { concurrency: 10 }
      ))
      yield* Effect.sleep("100 millis")
      const workers = childrenOf(server.pid)
      server.signal("SIGTERM")
      expect(yield* server.exited).toEqual({ code: 0, signal: null })
      const during = yield* Fiber.join(inFlight)
      expect(during.filter((status) => status !== 200 && status !== 0)).toEqual([])
      expect(during.filter((status) => status === 200).length).toBeGreaterThan(0)
      expect(workers).toHaveLength(2)
      expect(workers.filter(isAlive)).toEqual([])
    }))

  it.scoped("a serving process that dies is replaced; the port keeps answering", () =>
    Effect.gen(function*() {
      const metricsPort = yield* twoFreePorts
      const server = yield* serveProcessWith({ PROCESSES: "2", METRICS_PORT: String(metricsPort) })
      yield* listening(server.output, 2)
      const [victim] = childrenOf(server.pid)
      expect(victim).toBeGreaterThan(0)
      process.kill(victim ?? 0, "SIGKILL")
      // Its replacement listens on the same metrics port.
      const replaced = yield* Effect.retry(
        Effect.filterOrFail(
          Effect.sync(() => childrenOf(server.pid)),
          (pids) => pids.length === 2 && !pids.includes(victim ?? 0),
          () => "not yet"
        ),
        Schedule.spaced("200 millis").pipe(Schedule.upTo("30 seconds"))
      )
      expect(replaced).toHaveLength(2)
      yield* listening(server.output, 3)
      const statuses = yield* Effect.forEach(
        Array.from({ length: 10 }, () => `${server.baseUrl}/health/ready`),
        onNewConnection,
        { concurrency: 2 }
      )
      expect(statuses.every((status) => status === 200)).toBe(true)
      expect(server.output()).toContain("exited (code null, signal SIGKILL); starting another")
    }))

  it.effect("a serving process that cannot start (its port in use, its metrics port free) stops the primary: exit 1, and why", () =>
    Effect.gen(function*() {
      const metricsPort = yield* twoFreePorts
      const blocker = net.createServer()
      const port = yield* Effect.async<number>((resume) => {
        blocker.listen(0, "127.0.0.1", () => {
          const address = blocker.address()
          resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
        })
      })
      const result = yield* hotelWith(
        { PORT: String(port), HOST: "127.0.0.1", PROCESSES: "2", METRICS_PORT: String(metricsPort) },
        "serve"
      ).pipe(
        Effect.ensuring(Effect.sync(() => blocker.close()))
      )
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use: stop the other process or set PORT`)
      expect(result.stderr).toMatch(/Serving process [01] exited while starting \(code 1, signal null\)/)
    }))

  it.effect("PROCESSES must be a whole number from 1 to 64", () =>
    Effect.gen(function*() {
      const result = yield* hotelWith({ PROCESSES: "0" }, "serve")
      expect(result.code).toBe(1)
      expect(result.stderr).toContain("PROCESSES must be a whole number from 1 to 64")
    }))
})
