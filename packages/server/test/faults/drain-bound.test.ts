import { expect, layer } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { pauseTimeout } from "../../src/runtime/ListenerPause.js"
import { drainTimeout } from "../../src/runtime/TrackedServer.js"
import { holdBody, newGuest } from "../utils/booking.js"
import { attempt } from "../utils/connections.js"
import { processesReady, type ServeProcess, serveProcessWith } from "../utils/processes.js"
import { idleConnection, type RawRequest, requestLoops, slowReader, tricklingRequest } from "../utils/slowClients.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// A stop is bounded: whatever its clients do, a server asked to stop by SIGTERM exits within the drain delay,
// the wait for a pause between connections (1 s at most) and the requests' 10 s. A body trickling in, an
// answer read slowly, a request waiting on a lock are cut at the bound (the last answered 503 shutting_down),
// and nothing they began is left half-written; connections arriving without pause close the listener 1 s after
// the delay; kept-alive clients never meet a reset. The built entry point, as the image runs it, with one and two
// processes.

/** Short: the delay is not the point here. */
const delayMs = 1000
const ms = Duration.toMillis
/** The most a stop takes by its own bounds (the delay, the pause, the requests in flight). */
const boundMs = delayMs + ms(pauseTimeout) + ms(drainTimeout)
/** The pool's close after it (1 s at most) and room for a machine busy with other test files. */
const exitBoundMs = boundMs + 3000

const auth = (key: string) => ({ authorization: `Bearer ${key}` })

/** Sends SIGTERM to the server's own process (what `docker stop` does to the image) and times what follows. */
const stop = (server: ServeProcess) =>
  Effect.gen(function*() {
    const signalledAt = Date.now()
    server.signal("SIGTERM")
    const exit = yield* Effect.forkChild(server.exited.pipe(Effect.map((exit) => ({ ...exit, afterMs: Date.now() - signalledAt }))))
    const listenerClosedAfterMs = Effect.gen(function*() {
      while (!server.output().includes("listener closed")) yield* Effect.sleep("10 millis")
      return Date.now() - signalledAt
    })
    return { signalledAt, exit, listenerClosedAfterMs }
  })

/**
 * Waits until PostgreSQL shows `count` statements of this database waiting for a lock (in a transaction, whose
 * view of the activity is taken once unless cleared).
 */
const waitingOnLocks = (count: number) =>
  Effect.flatMap(TestApi, (api) =>
    Effect.repeat(
      api.sql`SELECT pg_stat_clear_snapshot()`.pipe(
        Effect.andThen(api.sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
                                               WHERE datname = current_database() AND wait_event_type = 'Lock'`),
        Effect.orDie,
        Effect.map((rows) => rows[0]?.n ?? 0),
        Effect.tap(Effect.sleep("20 millis"))
      ),
      { until: (n) => n >= count }
    ))

layer(TestApiLive, { excludeTestServices: true, timeout: "120 seconds" })("faults: a stop is bounded", (it) => {
  for (const processes of [1, 2]) {
    it.effect(
      `PROCESSES=${processes}: a trickling body, a slow reader and a hold waiting on a lock are cut at the bound; an idle kept-alive connection is closed with the listener`,
      () =>
        Effect.scoped(Effect.gen(function*() {
          const api = yield* TestApi
          const key = yield* api.createKey({ rateLimit: 100_000 })
          const server = yield* serveProcessWith({
            HOTEL_DRAIN_DELAY_MS: String(delayMs),
            PROCESSES: String(processes),
            // The hold waits on the test's lock past the stop's bound, not on the lock timeout's 10 s.
            HOTEL_DB_LOCK_TIMEOUT_MS: "60000"
          })
          if (processes > 1) yield* processesReady(server, processes)
          const guest = yield* newGuest(api)
          const lastName = `Trickle-${guest}`

          yield* api.sql.withTransaction(Effect.gen(function*() {
            yield* api.sql`SELECT id FROM guests WHERE id = ${guest} FOR UPDATE`
            const hold = yield* Effect.forkChild(attempt(server.baseUrl, {
              method: "POST",
              path: "/holds",
              headers: { ...auth(key), "content-type": "application/json" }
            }, JSON.stringify(holdBody(api, guest))))
            yield* waitingOnLocks(1)
            // About 25 s of body at a byte every 150 ms.
            const trickle = yield* Effect.forkChild(tricklingRequest(server.baseUrl, {
              method: "POST",
              path: "/guests",
              headers: { ...auth(key), "content-type": "application/json" }
            }, JSON.stringify({ first_name: "T".repeat(100), last_name: lastName }), 150))
            // 30 answers of about 700 kB, read 64 kB at most every 250 ms: about a minute.
            const reader = yield* slowReader(server.baseUrl, "/openapi.json", 30, 250)
            yield* reader.started
            const idle = yield* idleConnection(server.baseUrl, "/health/live", () => ({
              at: Date.now(),
              listenerClosed: server.output().includes("listener closed")
            }))
            expect(idle.answer).toContain("Keep-Alive: timeout=65")

            const { exit, signalledAt } = yield* stop(server)
            const [stopped, held, trickled, read, idleEnd] = yield* Effect.all(
              [Fiber.join(exit), Fiber.join(hold), Fiber.join(trickle), reader.ended, idle.closed],
              { concurrency: "unbounded" }
            )

            expect(stopped).toMatchObject({ code: 0, signal: null })
            expect(stopped.afterMs, `exit ${stopped.afterMs} ms after SIGTERM`).toBeLessThan(exitBoundMs)
            // Past the bound, each was still in flight: cut.
            expect(stopped.afterMs).toBeGreaterThan(ms(drainTimeout))
            expect(server.output()).toContain("cut after 10s")

            // The hold's body had arrived: 503 shutting_down under the request's id, the connection closed.
            if (held._tag !== "Answered") return yield* Effect.die(new Error(`the hold was not answered: ${held.code}`))
            expect(held.status, held.body).toBe(503)
            const envelope = JSON.parse(held.body) as { error: { type: string; code: string; param?: string; request_id: string } }
            expect(envelope.error).toMatchObject({ type: "server", code: "shutting_down" })
            expect(envelope.error.param).toBeUndefined()
            expect(held.headers).toMatchObject({ "retry-after": "1", connection: "close", "x-request-id": envelope.error.request_id })
            // The trickling body had not: its connection closed, no answer.
            expect(trickled).toMatchObject({ _tag: "Failed", connected: true })
            // The slow reader was cut before the end of its answers.
            expect(read.received).toBeLessThan(30 * 700_000)
            // The idle connection was kept through the delay, then closed with the listener, long before the bound.
            expect(idleEnd).toMatchObject({ error: undefined, seen: { listenerClosed: true } })
            expect(idleEnd.seen.at - signalledAt, "the idle connection closed at the bound").toBeLessThan(ms(drainTimeout))
          }))

          // Nothing half-written: no guest from the trickling body, no reservation of the cut hold, once the
          // test's lock is gone (the server, gone, can commit nothing).
          const guests = yield* api.sql<{ n: number }>`SELECT count(*)::int AS n FROM guests WHERE last_name = ${lastName}`
          const reservations = yield* api.sql<{ n: number }>`SELECT count(*)::int AS n FROM reservations WHERE guest_id = ${guest}`
          expect([guests[0]?.n, reservations[0]?.n]).toEqual([0, 0])
        }).pipe(Effect.orDie)),
      { timeout: 90_000 }
    )

    it.effect(
      `PROCESSES=${processes}: 8 loops of fresh and kept-alive connections without pause close the listener after the delay; no reset on a kept-alive connection`,
      () =>
        Effect.scoped(Effect.gen(function*() {
          const api = yield* TestApi
          const key = yield* api.createKey({ rateLimit: 100_000 })
          const server = yield* serveProcessWith({ HOTEL_DRAIN_DELAY_MS: String(delayMs), PROCESSES: String(processes) })
          if (processes > 1) yield* processesReady(server, processes)
          const paths = ["/me", "/rates?check_in=2031-03-10&check_out=2031-03-13&adults=2", "/health/ready"]
          const requests: ReadonlyArray<RawRequest> = Array.from({ length: 8 }, (_, i) => ({
            method: "GET",
            path: paths[i % paths.length] ?? "/me",
            headers: auth(key)
          }))
          let exited = false
          const keptAlive = (i: number) => i % 2 === 0
          const loops = yield* Effect.forkChild(requestLoops(server.baseUrl, requests, keptAlive, () => exited))
          // Every loop under way (the kept-alive ones on a connection used before) before the stop.
          yield* Effect.sleep("1 second")

          const { exit, listenerClosedAfterMs } = yield* stop(server)
          const closedAfter = yield* listenerClosedAfterMs
          const stopped = yield* Fiber.join(exit)
          exited = true
          const sent = yield* Fiber.join(loops)

          expect(stopped).toMatchObject({ code: 0, signal: null })
          expect(stopped.afterMs, `exit ${stopped.afterMs} ms after SIGTERM`).toBeLessThan(exitBoundMs)
          // Connections arriving without pause keep the listener open for the delay and 1 s more at most.
          expect(closedAfter, `listener closed ${closedAfter} ms after SIGTERM`).toBeLessThan(delayMs + ms(pauseTimeout) + 2000)

          const closedAnyway = server.output().includes("listener closed anyway")
          for (const { keptAlive, sent: loop } of sent) {
            const answers = loop.flatMap(({ outcome }) => outcome._tag === "Answered" ? [outcome] : [])
            // Answered as usual, or 503 shutting_down by the readiness check, always with `Connection: close`.
            for (const answer of answers) {
              if (answer.status === 503) {
                expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "shutting_down" } })
                expect(answer.headers.connection).toBe("close")
              } else expect(answer.status, answer.body).toBe(200)
            }
            if (keptAlive) {
              expect(loop.some(({ reused }) => reused), "a kept-alive loop reused its connection").toBe(true)
              // Kept alive until the stop; from then on every answer says `Connection: close`.
              const closing = answers.findIndex((answer) => answer.headers.connection === "close")
              expect(closing).toBeGreaterThan(0)
              expect(answers.slice(closing).every((answer) => answer.headers.connection === "close")).toBe(true)
            }
            // No request on a kept-alive connection meets a reset: the server closes none that a client may reuse.
            expect(loop.filter(({ outcome, reused }) => reused && outcome._tag === "Failed")).toEqual([])
            // A new connection is refused once the listener closed; the kernel resets one it completed in the
            // very instant the listener closed while connections kept coming (one a loop at most).
            const failures = loop.flatMap(({ outcome }) => outcome._tag === "Failed" ? [outcome.code] : [])
            const resets = failures.filter((code) => code !== "ECONNREFUSED")
            expect(resets.every((code) => code === "ECONNRESET")).toBe(true)
            expect(resets.length).toBeLessThanOrEqual(closedAnyway ? 1 : 0)
            // The loop went on until the listener closed.
            expect(failures.at(-1)).toBe("ECONNREFUSED")
          }
        })),
      { timeout: 90_000 }
    )
  }
})
