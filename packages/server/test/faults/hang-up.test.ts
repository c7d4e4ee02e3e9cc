import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Http from "node:http"
import { hold, holdBody, type HoldRequest, newGuest } from "../utils/booking.js"
import { TestApi, TestApiLive, type TestApiService } from "../utils/TestServer.js"

// A client that hangs up costs nothing. Five waves of 40 `POST /holds`, each with its own
// Idempotency-Key and guest, each client hanging up 5-200 ms after sending, while another client reads one
// reservation every 20 ms. The API must stay responsive (no read waiting for a connection), answer nothing with a 5xx,
// leave no backend idle in a transaction, and each hung-up hold must have run all or nothing: either it
// exists and its key replays its 201, or it does not and the retry with its key creates it, once.

const waves = 5
const perWave = 40

interface Planned {
  readonly key: string
  readonly guest: string
  readonly body: HoldRequest
}

/**
 * Sends the hold and destroys the connection `hangUpMs` after the request was sent in full; the status when
 * an answer came first.
 */
const sendAndHangUp = (api: TestApiService, planned: Planned, hangUpMs: number) =>
  Effect.callback<number | null>((resume) => {
    const payload = JSON.stringify(planned.body)
    let answered: number | null = null
    const req = Http.request(`${api.baseUrl}/holds`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${api.key}`,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(payload)),
        "idempotency-key": planned.key
      }
    }, (res) => {
      answered = res.statusCode ?? null
      res.resume()
    })
    req.on("error", () => undefined)
    req.on("finish", () =>
      setTimeout(() => {
        req.destroy()
        resume(Effect.succeed(answered))
      }, hangUpMs))
    req.end(payload)
  })

interface Read {
  readonly status: number
  readonly ms: number
}

/** GETs the reservation every 20 ms until interrupted, recording each read's status and duration. */
const reader = (api: TestApiService, reservationId: string, reads: Array<Read>) =>
  Effect.gen(function*() {
    const started = performance.now()
    const res = yield* api.get(`/reservations/${reservationId}`)
    reads.push({ status: res.status, ms: Math.round(performance.now() - started) })
  }).pipe(Effect.andThen(Effect.sleep("20 millis")), Effect.forever)

/** Waits until no other backend of the test database is working (the abandoned requests have finished). */
const settled = (api: TestApiService) =>
  Effect.gen(function*() {
    for (let i = 0; i < 600; i++) {
      const [row] = yield* api.sql<{ busy: number }>`
        SELECT count(*)::int AS busy FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`.pipe(Effect.orDie)
      if (row?.busy === 0) return
      yield* Effect.sleep("100 millis")
    }
  })

const reservationsOf = (api: TestApiService, guest: string) =>
  Effect.map(
    api.sql<{ id: string }>`SELECT id FROM reservations WHERE guest_id = ${guest}`.pipe(Effect.orDie),
    (rows) => rows.map((row) => row.id)
  )

layer(TestApiLive, { excludeTestServices: true })("faults: clients that hang up", (it) => {
  it.effect(`${waves} waves of ${perWave} holds hung up mid-flight: no stall, no 5xx, each hold all or nothing`, () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const watched = yield* hold(api, holdBody(api, yield* newGuest(api), { check_in: "2030-12-01", check_out: "2030-12-02" }))
      expect(watched.status).toBe("tentative")
      const reads: Array<Read> = []
      const reading = yield* Effect.forkChild(reader(api, watched.reservation_id, reads))

      const planned: Array<Planned> = []
      const early: Array<number> = []
      for (let wave = 0; wave < waves; wave++) {
        const batch = yield* Effect.all(Array.from({ length: perWave }, (_, i) =>
          Effect.map(newGuest(api), (guest): Planned => {
            const n = wave * perWave + i
            return {
              key: `hang-up-${n}-${guest}`,
              guest,
              // One stay a week (spread over the three double rooms): availability never refuses a hold.
              body: holdBody(api, guest, {
                check_in: new Date(Date.UTC(2031, 0, 5 + 7 * n)).toISOString().slice(0, 10),
                check_out: new Date(Date.UTC(2031, 0, 7 + 7 * n)).toISOString().slice(0, 10)
              })
            }
          })))
        planned.push(...batch)
        const statuses = yield* Effect.all(
          batch.map((p) => sendAndHangUp(api, p, 5 + Math.floor(Math.random() * 196))),
          { concurrency: "unbounded" }
        )
        for (const status of statuses) if (status !== null) early.push(status)
      }
      yield* settled(api)
      yield* Fiber.interrupt(reading)

      const slowest = reads.reduce((max, read) => Math.max(max, read.ms), 0)
      yield* Effect.logInfo(`hang-up: ${reads.length} reads, slowest ${slowest} ms; ${early.length} holds answered before the hang-up`)
      expect(reads.length).toBeGreaterThan(10)
      expect(reads.filter((read) => read.status !== 200), "reads that failed").toEqual([])
      // A stall is a read queued behind connections the hung-up holds never gave back: it would wait out the
      // pool's 10 s timeout. Half of that is far above any scheduling delay of a busy machine.
      expect(reads.filter((read) => read.ms > 5_000), "reads that waited for a connection").toEqual([])
      const idle = yield* api.sql<{ pid: number; state: string }>`
        SELECT pid, state FROM pg_stat_activity
        WHERE datname = current_database() AND state LIKE 'idle in transaction%'`.pipe(Effect.orDie)
      expect(idle, "backends left idle in a transaction").toEqual([])
      for (const status of early) expect(status).toBeLessThan(500)

      // All or nothing: what exists replays; what does not is created by the retry, once.
      let existed = 0
      for (const p of planned) {
        const before = yield* reservationsOf(api, p.guest)
        expect(before.length).toBeLessThanOrEqual(1)
        const keyed = yield* api.clientFor(api.key, { headers: { "Idempotency-Key": p.key } })
        const [{ reservation_id: id }, retried] = yield* keyed.holds.create({ headers: {}, payload: p.body, responseMode: "decoded-and-response" })
        expect(retried.status).toBe(201)
        if (before.length === 1) {
          existed++
          expect(retried.headers["idempotent-replayed"], `hold ${p.key} exists: its retry replays`).toBe("true")
          expect(id).toBe(before[0])
        } else {
          expect(retried.headers["idempotent-replayed"]).toBeUndefined()
        }
        expect(yield* reservationsOf(api, p.guest)).toEqual([id])
      }
      yield* Effect.logInfo(`hang-up: ${existed} of ${planned.length} hung-up holds had committed, the rest ran on retry`)
    }), { timeout: 300_000 })
})
