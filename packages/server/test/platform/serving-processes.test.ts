import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Schedule from "effect/Schedule"
import { execFileSync } from "node:child_process"
import * as net from "node:net"
import { isAlive } from "@hotel/persistence/database/EmbeddedPostgres"
import { freePort, freePorts } from "../../../persistence/test/utils/freePort.js"
import { attempt } from "../utils/connections.js"
import { exitWithin, hotelWith, processesReady, serveProcessWith, startingProcessWith } from "../utils/processes.js"
import { TestApiLive } from "../utils/TestServer.js"

// `PROCESSES=N`: `hotel serve` (the built bundle, as the image runs it) starts N serving processes on one
// port and one database, watches them, and stops them all on SIGTERM.

/** Another program listening on `port` (0: any free one) for the life of the scope; answers the port. */
const occupiedPort = (port: number) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly blocker: net.Server; readonly port: number }>((resume) => {
      const blocker = net.createServer()
      blocker.listen(port, "127.0.0.1", () => {
        const address = blocker.address()
        resume(Effect.succeed({ blocker, port: typeof address === "object" && address !== null ? address.port : 0 }))
      })
    }),
    ({ blocker }) => Effect.sync(() => blocker.close())
  ).pipe(Effect.map((occupied) => occupied.port))

/**
 * A connection to `port` as soon as it accepts one (the primary listens before it starts its processes), and
 * whether a serving process was ready by then.
 */
const connectedWhileStarting = (port: number, output: () => string) =>
  Effect.gen(function*() {
    for (;;) {
      const socket = yield* Effect.callback<net.Socket | undefined>((resume) => {
        const attempt = net.connect(port, "127.0.0.1")
        attempt.once("connect", () => resume(Effect.succeed(attempt)))
        attempt.once("error", () => resume(Effect.succeed(undefined)))
      })
      if (socket !== undefined) return { socket, readyAlready: /Serving process \d+ \(pid \d+\) is ready/.test(output()) }
      yield* Effect.sleep("10 millis")
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

/**
 * A request on a connection of its own, so the primary hands each to the next process; 0 when refused or reset,
 * -1 when no answer came within 20 s (a connection left hanging).
 */
const onNewConnection = (url: string) =>
  Effect.promise(() =>
    fetch(url, { headers: { connection: "close" }, signal: AbortSignal.timeout(20_000) }).then(
      (res) => res.status,
      (error: unknown) => (error instanceof DOMException && error.name === "TimeoutError" ? -1 : 0)
    )
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
  it.effect("two processes answer on one port, each counts on its own metrics port; SIGTERM stops both, in-flight answered", () =>
    Effect.gen(function*() {
      const metricsPort = yield* freePorts(2)
      const server = yield* serveProcessWith({ PROCESSES: "2", METRICS_PORT: String(metricsPort) })
      yield* processesReady(server, 2)
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
      const inFlight = yield* Effect.forkChild(Effect.forEach(
        Array.from({ length: 30 }, () => `${server.baseUrl}/openapi.json`),
        onNewConnection,
        { concurrency: 10 }
      ))
      yield* Effect.sleep("100 millis")
      const workers = childrenOf(server.pid)
      server.signal("SIGTERM")
      expect(yield* exitWithin(server, 30)).toEqual({ code: 0, signal: null })
      const during = yield* Fiber.join(inFlight)
      expect(during.filter((status) => status !== 200 && status !== 0)).toEqual([])
      expect(during.filter((status) => status === 200).length).toBeGreaterThan(0)
      expect(workers).toHaveLength(2)
      expect(workers.filter(isAlive)).toEqual([])
    }))

  it.effect("a serving process that dies is replaced; the port keeps answering", () =>
    Effect.gen(function*() {
      const metricsPort = yield* freePorts(2)
      const server = yield* serveProcessWith({ PROCESSES: "2", METRICS_PORT: String(metricsPort) })
      yield* processesReady(server, 2)
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
        Schedule.spaced("200 millis").pipe(Schedule.upTo({ duration: "30 seconds" }))
      )
      expect(replaced).toHaveLength(2)
      yield* processesReady(server, 3)
      const statuses = yield* Effect.forEach(
        Array.from({ length: 10 }, () => `${server.baseUrl}/health/ready`),
        onNewConnection,
        { concurrency: 2 }
      )
      expect(statuses.every((status) => status === 200)).toBe(true)
      expect(server.output()).toContain("exited (code null, signal SIGKILL); starting another")
    }))

  it.effect("a process stopped on its own drains while the other serves: every connection answered, it is replaced", () =>
    Effect.gen(function*() {
      const server = yield* serveProcessWith({ PROCESSES: "2", HOTEL_DRAIN_DELAY_MS: "300" })
      yield* processesReady(server, 2)
      const [stopped] = childrenOf(server.pid)
      expect(stopped).toBeGreaterThan(0)
      // Requests keep coming, four at a time, each on a connection of its own, from before the stop until the
      // stopped process has exited.
      const exited = () => server.output().includes("exited (code 0, signal null); starting another")
      const released = () => server.output().includes("released by the primary")
      const client = Effect.gen(function*() {
        const outcomes = []
        while (!exited()) {
          const sentAfterRelease = released()
          const outcome = yield* attempt(server.baseUrl, { method: "GET", path: "/health/live", headers: {} })
          outcomes.push({ outcome, sentAfterRelease })
        }
        return outcomes
      })
      const load = yield* Effect.forkChild(Effect.all(Array.from({ length: 4 }, () => client), { concurrency: "unbounded" }))
      yield* Effect.sleep("200 millis")
      process.kill(stopped ?? 0, "SIGTERM")
      const sent = (yield* Fiber.join(load)).flat()
      // Requests kept coming across the release, and the other process answered those sent after it.
      expect(sent.filter((request) => request.sentAfterRelease).length).toBeGreaterThan(0)
      const outcomes = sent.map((request) => request.outcome)
      expect(outcomes.filter((outcome) => outcome._tag !== "Answered" || outcome.status !== 200)).toEqual([])
      // Released once its delay was over (the other process takes its share), then exited 0 and replaced.
      yield* processesReady(server, 3)
      expect(server.output()).toContain("released by the primary")
      expect(server.output()).toContain("exited (code 0, signal null); starting another")
      expect(childrenOf(server.pid)).not.toContain(stopped)
    }))

  it.effect("a connection accepted before any process is ready waits for the first; a client that gives up meanwhile harms nothing", () =>
    Effect.gen(function*() {
      const server = yield* startingProcessWith({ PROCESSES: "2" })
      const port = Number(new URL(server.baseUrl).port)
      const early = yield* connectedWhileStarting(port, server.output)
      expect(early.readyAlready, "connected before any serving process was ready").toBe(false)
      const gaveUp = yield* connectedWhileStarting(port, server.output)
      gaveUp.socket.resetAndDestroy()
      const answer = yield* Effect.callback<string>((resume) => {
        let text = ""
        early.socket.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")))
        early.socket.on("close", () => resume(Effect.succeed(text)))
        early.socket.write("GET /health/live HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
      })
      expect(answer).toMatch(/^HTTP\/1\.1 200 /)
      yield* processesReady(server, 2)
      expect(yield* onNewConnection(`${server.baseUrl}/health/ready`)).toBe(200)
    }))

  it.effect("the primary listens: its port in use stops it before any process starts (exit 1, and why)", () =>
    Effect.scoped(Effect.gen(function*() {
      const port = yield* occupiedPort(0)
      const result = yield* hotelWith({ PORT: String(port), HOST: "127.0.0.1", PROCESSES: "2" }, "serve")
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is already in use: stop the other process or set PORT`)
      expect(result.stderr).not.toContain("Starting 2 serving processes")
    })))

  it.effect("a serving process that cannot start (its metrics port in use) stops the primary: exit 1, and why", () =>
    Effect.scoped(Effect.gen(function*() {
      const metricsPort = yield* freePorts(2)
      yield* occupiedPort(metricsPort + 1)
      const port = yield* freePort()
      const result = yield* hotelWith(
        { PORT: String(port), HOST: "127.0.0.1", PROCESSES: "2", METRICS_PORT: String(metricsPort) },
        "serve"
      )
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`port ${metricsPort + 1} on 127.0.0.1 is already in use`)
      expect(result.stderr).toContain("Serving process 1 exited while starting (code 1, signal null)")
    })))

  it.effect("PROCESSES must be a whole number from 1 to 64", () =>
    Effect.gen(function*() {
      const result = yield* hotelWith({ PROCESSES: "0" }, "serve")
      expect(result.code).toBe(1)
      expect(result.stderr).toContain("PROCESSES must be a whole number from 1 to 64")
    }))
})
