import * as SqlClient from "effect/sql/SqlClient"
import { Events } from "@hotel/domain"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Semaphore from "effect/Semaphore"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { sign } from "./Signature.js"
import { postWebhook } from "./WebhookSender.js"
import { WebhookPolicy } from "./WebhookPolicy.js"
import { withSpan } from "../database/Span.js"

// Sends due webhook deliveries. A delivery is claimed in a transaction with
// `SELECT ... FOR UPDATE SKIP LOCKED`; the POST is made while the row stays locked and the attempt is recorded
// in the same transaction. So each attempt is made by one process: another process skips the locked row, and if
// the claiming process dies (even `kill -9`) Postgres rolls its transaction back when the connection drops and
// the delivery is due again at once for any process. A receiver that answered just before such a crash sees the
// event again (at least once; it dedupes on `webhook-id`).

/** How often an idle worker looks for due deliveries (a delivery goes out within about this long of its commit). */
export const pollInterval = Duration.millis(500)

/**
 * Deliveries a process sends at once (each holds one pooled connection for at most the send timeout), at most
 * one per endpoint: an endpoint that hangs or times out holds one worker, never all of them, so the other
 * endpoints' deliveries keep going out.
 */
export const workerConcurrency = 4

interface DueDelivery {
  readonly id: string
  readonly endpoint_id: string
  readonly attempts: number
  readonly first_attempt_at: Date | null
  readonly event_id: string
  readonly type: string
  readonly sequence: string
  readonly data: unknown
  readonly created_at: Date
  readonly url: string
  readonly secret: string
}

export class WebhookDispatcher extends Context.Service<WebhookDispatcher>()("@hotel/persistence/webhooks/WebhookDispatcher", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const policy = yield* WebhookPolicy

    /** Endpoints this process is sending to right now (a delivery to one of them waits for the next round). */
    const sending = new Set<string>()
    // One claim at a time in this process, so two workers cannot both pick the same endpoint before either
    // has marked it (a claim is one short statement; the sends still run side by side).
    const claiming = yield* Semaphore.make(1)

    const claim = (now: Date) =>
      sql<DueDelivery>`
        SELECT d.id, d.endpoint_id, d.attempts, d.first_attempt_at, e.id AS event_id, e.type,
               e.sequence::text AS sequence, e.data, e.created_at, w.url, w.secret
        FROM webhook_deliveries d
        JOIN events e ON e.id = d.event_id
        JOIN webhook_endpoints w ON w.id = d.endpoint_id
        WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} AND w.deleted_at IS NULL AND w.is_active
          ${sending.size === 0 ? sql`` : sql`AND d.endpoint_id NOT IN ${sql.in([...sending])}`}
        ORDER BY d.next_attempt_at, d.id
        LIMIT 1
        FOR UPDATE OF d SKIP LOCKED`

    /** The event as the feed shows it: the body of the POST. */
    const bodyOf = (due: DueDelivery) =>
      JSON.stringify({
        id: due.event_id,
        type: due.type,
        sequence: Number(due.sequence),
        created_at: due.created_at.toISOString(),
        data: due.data
      })

    const attempt = (due: DueDelivery, now: Date) =>
      Effect.gen(function*() {
        const timestamp = Math.floor(now.getTime() / 1000)
        const body = bodyOf(due)
        const outcome = yield* postWebhook(due.url, {
          "webhook-id": due.event_id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": sign(due.secret, due.event_id, timestamp, body)
        }, body, policy.allowPrivate)
        const number = due.attempts + 1
        const first = due.first_attempt_at ?? now
        const status = outcome._tag === "Answered" ? outcome.status : null
        const delivered = Events.isDelivered(status)
        const next = delivered ? null : Events.nextAttemptAt(first, number, now)
        const state = delivered ? "succeeded" : next === null ? "failed" : "pending"
        const error = outcome._tag === "Failed" ? outcome.error : delivered ? null : `answered ${outcome.status}`
        yield* sql`
          INSERT INTO webhook_delivery_attempts (delivery_id, endpoint_id, event_id, event_type, attempt, status,
                                                 response_status, error, attempted_at, next_attempt_at)
          VALUES (${due.id}, ${due.endpoint_id}, ${due.event_id}, ${due.type}, ${number}, ${state}, ${status},
                  ${error}, ${now}, ${next})`
        yield* sql`
          UPDATE webhook_deliveries
          SET status = ${state}, attempts = ${number}, first_attempt_at = ${first}, next_attempt_at = ${next}
          WHERE id = ${due.id}`
      })

    /** Claims and sends one due delivery; answers whether there was one. */
    const deliverOne = Effect.gen(function*() {
      const now = new Date(yield* Clock.currentTimeMillis)
      // Suspended: the statement must be built under the permit, with the endpoints marked so far.
      const due = yield* claiming.withPermits(1)(Effect.map(Effect.suspend(() => claim(now)), ([row]) => {
        if (row !== undefined) sending.add(row.endpoint_id)
        return row
      }))
      if (due === undefined) return false
      yield* Effect.ensuring(attempt(due, now), Effect.sync(() => sending.delete(due.endpoint_id)))
      return true
    }).pipe(
      sql.withTransaction,
      Effect.orDie,
      // A delivery under way ends with its commit or rollback (an interrupted query would be cancelled
      // through the pool); shutdown waits for it, at most the send timeout.
      Effect.uninterruptible,
      withSpan("WebhookDispatcher.deliverOne")
    )

    /** Sends every delivery due now, one at a time; answers how many attempts were made. */
    const deliverDue = Effect.gen(function*() {
      let count = 0
      while (yield* deliverOne) count++
      return count
    })

    return { deliverOne, deliverDue } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}

/**
 * The delivery worker of a server process: `workerConcurrency` fibers, each sending due deliveries until none
 * is left and then polling every `pollInterval`. A failure is logged and the loop goes on.
 */
export const WebhookWorkerLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const dispatcher = yield* WebhookDispatcher
    const loop = dispatcher.deliverDue.pipe(
      Effect.catchCause((cause) => Effect.logWarning("Webhook delivery failed", Cause.pretty(cause))),
      Effect.repeat(Schedule.spaced(pollInterval))
    )
    for (let i = 0; i < workerConcurrency; i++) yield* Effect.forkScoped(loop)
  })
).pipe(Layer.provide(WebhookDispatcher.layer))
