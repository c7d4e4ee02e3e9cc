import * as SqlClient from "effect/sql/SqlClient"
import { Events } from "@hotel/domain"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { withSpan } from "../database/Span.js"

// Events are kept `Events.retentionDays` days, then deleted with their deliveries. Small batches, each its own
// short statement, skipping rows another purge holds: writers only insert new events, so nothing they lock is
// touched, and no long transaction builds up.

export const purgeBatch = 1000
export const purgeInterval = Duration.hours(1)

export class EventPurge extends Context.Service<EventPurge>()("@hotel/persistence/events/EventPurge", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const batch = (cutoff: Date) =>
      sql<{ id: string }>`
        DELETE FROM events WHERE id IN (
          SELECT id FROM events WHERE created_at < ${cutoff}
          ORDER BY created_at LIMIT ${purgeBatch} FOR UPDATE SKIP LOCKED)
        RETURNING id`.pipe(Effect.map((rows) => rows.length))

    /** Deletes every event older than the retention at `now` (from `Clock`); answers how many. */
    const purge = Effect.gen(function*() {
      const now = yield* Clock.currentTimeMillis
      const cutoff = new Date(now - Events.retentionDays * 24 * 60 * 60 * 1000)
      let total = 0
      for (;;) {
        const deleted = yield* batch(cutoff)
        total += deleted
        if (deleted < purgeBatch) return total
      }
    }).pipe(Effect.orDie, withSpan("EventPurge.purge"))

    return { purge } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}

/** The purge every `purgeInterval` in a server process; a failure is logged and the next run goes on. */
export const EventPurgeLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const purger = yield* EventPurge
    // A purge under way is never interrupted (an interrupted query would be cancelled through the pool).
    const once = purger.purge.pipe(
      Effect.uninterruptible,
      Effect.catchCause((cause) => Effect.logWarning("Event purge failed", Cause.pretty(cause)))
    )
    yield* Effect.forkScoped(Effect.repeat(once, Schedule.spaced(purgeInterval)))
  })
).pipe(Layer.provide(EventPurge.layer))
