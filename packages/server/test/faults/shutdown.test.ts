import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as Http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { isAlive } from "@hotel/persistence/database/EmbeddedPostgres"
import { freePort } from "../../../persistence/test/utils/freePort.js"
import { holdBody, newGuest } from "../utils/booking.js"
import { exitWithin, serveProcess, serveProcessWith } from "../utils/processes.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// Graceful shutdown: SIGTERM (or SIGINT) stops accepting connections, lets the requests in flight finish,
// then closes the pool and, last, the embedded database. A request is either answered as usual or never
// accepted (its connection refused); none is answered 500 or has its connection reset by the shutdown.

type Outcome = { readonly status: number } | { readonly error: string }

/**
 * One `POST /holds` through `agent`: a kept-alive pool of a few connections, as real clients use, so that
 * requests queue on connections the server already accepted.
 */
const postHold = (baseUrl: string, key: string, body: unknown, agent: Http.Agent) =>
  Effect.callback<Outcome>((resume) => {
    const url = new URL(baseUrl)
    const payload = JSON.stringify(body)
    const req = Http.request({
      host: url.hostname,
      port: url.port,
      path: "/holds",
      method: "POST",
      agent,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }
    }, (res) => {
      res.resume()
      res.on("end", () => resume(Effect.succeed({ status: res.statusCode ?? 0 })))
      res.on("error", (error: NodeJS.ErrnoException) => resume(Effect.succeed({ error: error.code ?? error.message })))
    })
    req.on("error", (error: NodeJS.ErrnoException) => resume(Effect.succeed({ error: error.code ?? error.message })))
    req.end(payload)
  }).pipe(Effect.timeoutOrElse({ duration: "60 seconds", orElse: () => Effect.succeed<Outcome>({ error: "no answer" }) }))


layer(TestApiLive, { excludeTestServices: true, timeout: "240 seconds" })("faults: graceful shutdown", (it) => {
  it.effect("SIGTERM with 60 holds in flight: each is answered 201/409 or refused, never 500 or reset; exit 0", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* TestApi
      const guests = yield* Effect.all(Array.from({ length: 60 }, () => newGuest(api)))
      const server = yield* serveProcess
      const agent = yield* Effect.acquireRelease(
        Effect.sync(() => new Http.Agent({ keepAlive: true, maxSockets: 8 })),
        (pool) => Effect.sync(() => pool.destroy())
      )
      let answered = 0
      const during = Effect.all(
        guests.map((guest) =>
          Effect.tap(postHold(server.baseUrl, api.key, holdBody(api, guest), agent), () =>
            Effect.sync(() => {
              if (++answered === 3) server.signal("SIGTERM")
            }))
        ),
        { concurrency: "unbounded" }
      )
      // Requests sent once the shutdown began: accepted and answered, or refused.
      const after = Effect.gen(function*() {
        yield* Effect.sleep("300 millis")
        const late = yield* newGuest(api)
        return yield* postHold(server.baseUrl, api.key, holdBody(api, late), agent)
      })
      const [outcomes, late] = yield* Effect.all([during, after], { concurrency: "unbounded" })
      const exit = yield* exitWithin(server, 15)

      for (const outcome of [...outcomes, late]) {
        if ("status" in outcome) expect([201, 409]).toContain(outcome.status)
        else expect(outcome.error).toBe("ECONNREFUSED")
      }
      expect(outcomes.filter((outcome) => "status" in outcome && outcome.status === 201).length).toBeGreaterThan(0)
      expect(exit).toEqual({ code: 0, signal: null })
    })), { timeout: 240_000 })

  it.effect("SIGINT (a Ctrl-C) stops it the same way, without the drain delay: exit 0", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* serveProcessWith({ HOTEL_DRAIN_DELAY_MS: "60000" })
      server.signal("SIGINT")
      expect(yield* exitWithin(server, 15)).toEqual({ code: 0, signal: null })
    })), { timeout: 240_000 })

  it.effect("with the embedded database: SIGTERM stops the server, then PostgreSQL; no postgres is left", () =>
    Effect.scoped(Effect.gen(function*() {
      const dataDir = yield* Effect.acquireRelease(
        Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "hotel-shutdown-"))),
        (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
      )
      const pgPort = yield* freePort()
      const server = yield* serveProcessWith({ DATABASE_URL: "", HOTEL_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) })
      const children = execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(server.pid)], { encoding: "utf8" })
      const postgres = children.split("\n").map((line) => line.trim().split(/\s+/)).filter(([, comm]) => comm === "postgres")
      expect(postgres).toHaveLength(1)
      const postgresPid = Number(postgres[0]?.[0])
      expect(isAlive(postgresPid)).toBe(true)

      server.signal("SIGTERM")
      expect(yield* exitWithin(server, 15)).toEqual({ code: 0, signal: null })
      expect(isAlive(postgresPid)).toBe(false)
    })), { timeout: 240_000 })
})
