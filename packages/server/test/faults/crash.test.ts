import { expect, layer } from "@effect/vitest"
import { HoldCreated } from "@hotel/api/booking/Api"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { holdBody, newGuest } from "../utils/booking.js"
import { serveProcess } from "../utils/processes.js"
import { TestApi, TestApiLive, type TestApiService } from "../utils/TestServer.js"

// A crash in the middle of writes. A real `hotel serve` process on
// the test's database takes 32 concurrent `POST /holds`, each with its own Idempotency-Key and its own guest,
// and is killed with SIGKILL while they are in flight. A new process is started and every request whose answer
// was lost is retried with its same key until it is answered (the dead process's transactions, and the keys
// they held, ended with its connections, so the retry is answered at once). Then the same for confirms of every hold. The database must then show each request's
// change at most once: one reservation per guest (one guest per key), one payment per confirmed reservation,
// folios that add up, no night sold twice.

const requests = 32

interface Planned {
  readonly key: string
  readonly path: string
  readonly body: unknown
}

interface Answer {
  readonly status: number
  readonly text: string
}

const send = (baseUrl: string, apiKey: string, planned: Planned) =>
  Effect.promise(() =>
    fetch(`${baseUrl}${planned.path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        "idempotency-key": planned.key
      },
      body: JSON.stringify(planned.body)
    }).then(
      async (res): Promise<Answer | null> => ({ status: res.status, text: await res.text() }),
      () => null
    )
  )

/** Retries one request with its key until an answer that is not "still in progress" (at most ~100 s). */
const retry = (baseUrl: string, apiKey: string, planned: Planned) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 100; attempt++) {
      const answer = yield* send(baseUrl, apiKey, planned)
      if (answer !== null && !(answer.status === 409 && answer.text.includes("idempotency_in_progress"))) return answer
      yield* Effect.sleep("1 second")
    }
    return yield* Effect.die(new Error(`no answer for ${planned.path} with key ${planned.key}`))
  })

/**
 * Sends every request concurrently to a fresh server process, kills it with SIGKILL as soon as a few answers
 * are back, then retries the lost ones on a new process. Returns the answers, in request order.
 */
const crashAndRetry = (api: TestApiService, planned: ReadonlyArray<Planned>) =>
  Effect.scoped(Effect.gen(function*() {
    const first = yield* serveProcess
    let answered = 0
    const answers = yield* Effect.all(
      planned.map((p) =>
        Effect.tap(send(first.baseUrl, api.key, p), (answer) =>
          Effect.sync(() => {
            if (answer !== null && ++answered === 3) first.crash()
          }))
      ),
      { concurrency: "unbounded" }
    )
    first.crash()
    const lost = answers.filter((answer) => answer === null).length
    const second = yield* serveProcess
    const final = yield* Effect.all(
      planned.map((p, i) => {
        const answer = answers[i]
        return answer === null || answer === undefined ? retry(second.baseUrl, api.key, p) : Effect.succeed(answer)
      }),
      { concurrency: "unbounded" }
    )
    return { lost, final }
  }))

layer(TestApiLive, { excludeTestServices: true })("faults: a crash mid-flight", (it) => {
  it.effect(`${requests} holds and their confirms, killed mid-flight and retried: every change happened once`, () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const propertyId = api.property.property_id
      const guests = yield* Effect.all(Array.from({ length: requests }, () => newGuest(api)))
      // One request a week on the three double rooms: availability is never what refuses a hold.
      const holds: ReadonlyArray<Planned> = guests.map((guest, i) => ({
        key: `crash-hold-${i}-${guest}`,
        path: "/holds",
        body: holdBody(api, guest, {
          check_in: new Date(Date.UTC(2031, 0, 5 + 7 * i)).toISOString().slice(0, 10),
          check_out: new Date(Date.UTC(2031, 0, 7 + 7 * i)).toISOString().slice(0, 10)
        })
      }))
      const held = yield* crashAndRetry(api, holds)
      expect(held.lost, "the crash cut some answers").toBeGreaterThan(0)
      const holdCreated = Schema.decodeUnknownSync(Schema.fromJsonString(HoldCreated))
      const ids = held.final.filter((answer) => answer.status === 201).map((answer) =>
        holdCreated(answer.text).reservation_id
      )
      const confirms: ReadonlyArray<Planned> = ids.map((id, i) => ({
        key: `crash-confirm-${i}-${id}`,
        path: `/holds/${id}/confirm`,
        body: { payment_reference: `crash_pay_${id}` }
      }))
      const confirmed = yield* crashAndRetry(api, confirms)

      // One reservation per guest: a request's hold was never made twice.
      const perGuest = yield* api.sql<{ guest_id: string; reservations: number }>`
        SELECT guest_id, count(*)::int AS reservations FROM reservations
        WHERE property_id = ${propertyId} GROUP BY guest_id HAVING count(*) <> 1`.pipe(Effect.orDie)
      expect(perGuest, "guests with other than one reservation").toEqual([])
      // Every confirmed reservation has exactly one payment row and one payment line, of its total.
      const payments = yield* api.sql<{ id: string; payments: number; lines: number; paid: string; total: string }>`
        SELECT r.id,
               (SELECT count(*) FROM payments p WHERE p.reservation_id = r.id)::int AS payments,
               (SELECT count(*) FROM folio_lines l WHERE l.folio_id = f.id AND l.kind = 'payment')::int AS lines,
               (SELECT COALESCE(sum(l.amount), 0) FROM folio_lines l WHERE l.folio_id = f.id AND l.kind = 'payment')::text AS paid,
               r.total::text AS total
        FROM reservations r JOIN folios f ON f.reservation_id = r.id
        WHERE r.property_id = ${propertyId} AND r.status = 'confirmed'`.pipe(Effect.orDie)
      expect(payments).toHaveLength(ids.length)
      for (const row of payments) {
        expect(row, "one payment of the total").toMatchObject({ payments: 1, lines: 1 })
        expect(Number(row.paid)).toBe(Number(row.total))
      }
      // Folios add up: the charge lines are the reservation's total, and the balance is zero once paid.
      const unbalanced = yield* api.sql<{ id: string }>`
        SELECT r.id FROM reservations r JOIN folios f ON f.reservation_id = r.id
        WHERE r.property_id = ${propertyId}
          AND r.total <> (SELECT COALESCE(sum(l.amount), 0) FROM folio_lines l
                          WHERE l.folio_id = f.id AND l.kind NOT IN ('payment', 'refund', 'credit', 'cancellation_fee'))`.pipe(
        Effect.orDie
      )
      expect(unbalanced, "folios whose lines are not the reservation total").toEqual([])
      // No night of a room type sold more often than it has rooms.
      const oversold = yield* api.sql<{ room_type_id: string; night: string }>`
        SELECT r.room_type_id, d::date::text AS night
        FROM reservations r, generate_series(r.check_in_date, r.check_out_date - 1, interval '1 day') AS d
        WHERE r.property_id = ${propertyId} AND r.status IN ('confirmed', 'checked_in')
        GROUP BY r.room_type_id, d
        HAVING count(*) > (SELECT count(*) FROM rooms WHERE room_type_id = r.room_type_id AND NOT retired)`.pipe(
        Effect.orDie
      )
      expect(oversold).toEqual([])
      // And every request was answered as it would have been without the crash.
      for (const answer of held.final) expect(answer.status, answer.text).toBe(201)
      for (const answer of confirmed.final) expect(answer.status, answer.text).toBe(200)
    }), { timeout: 400_000 })
})
