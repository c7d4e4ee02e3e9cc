import * as SqlClient from "effect/sql/SqlClient"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { EventOutbox, type PendingEvent } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import { withSpan } from "../database/Span.js"

// Writes down automatic releases. Nothing depends on it running: inventory, pickups and reads apply
// `block_night_released` at the caller's `now`, so a night's remaining units are free from its release instant.
// The releaser only announces it: `availability.changed` for the nights a definite block freed since the last
// announcement, and `block.released` once every night of a (tentative or definite) block is released. Nights
// release in date order, so what is announced is one date per block (`announced_until`, exclusive).
//
// One transaction per batch, safe in every process at once: the blocks are claimed with
// `FOR NO KEY UPDATE SKIP LOCKED`, so two releasers never wait on each other, and a block a write holds is left
// for the next round. The releaser waits on no other lock while it holds a block's.

/** Blocks announced per statement; the run repeats until a batch comes back short. */
export const releaseBatch = 200

/** How often a server process looks for releases (well within the 60 seconds promised). */
export const releaseInterval = Duration.seconds(5)

interface Due {
  readonly id: string
  readonly property_id: string
  readonly room_type_id: string
  readonly status: string
  readonly announced_until: string
  readonly released_until: string
  readonly end_date: string
}

const eventsOf = (due: Due): ReadonlyArray<PendingEvent> => [
  ...(due.status === "definite"
    ? [{
      type: "availability.changed" as const,
      subject: Subject.availability(due.room_type_id, due.announced_until, due.released_until)
    }]
    : []),
  ...(due.released_until === due.end_date ? [{ type: "block.released" as const, subject: Subject.block(due.id) }] : [])
]

export class BlockReleaser extends Context.Service<BlockReleaser>()("@hotel/persistence/blocks/BlockReleaser", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const batch = (now: Date) =>
      Effect.gen(function*() {
        const due = yield* sql<Due>`
          WITH claimed AS (
            -- Only blocks whose first night not yet announced is released: nights release in date order.
            SELECT b.id FROM blocks b JOIN properties p ON p.id = b.property_id
            WHERE b.status IN ('tentative', 'definite') AND b.announced_until < b.end_date
              AND block_night_released(b.status, b.released_at, b.release_at, b.release_days_before,
                                       b.announced_until, p.timezone, ${now})
            ORDER BY b.id
            LIMIT ${releaseBatch}
            FOR NO KEY UPDATE OF b SKIP LOCKED
          ), reached AS (
            SELECT b.id, b.property_id, b.room_type_id, b.status, b.announced_until, b.end_date,
                   COALESCE((SELECT max(bn.night) + 1 FROM block_nights bn
                              WHERE bn.block_id = b.id
                                AND block_night_released(b.status, b.released_at, b.release_at, b.release_days_before,
                                                         bn.night, p.timezone, ${now})), b.start_date) AS released_until
            FROM blocks b JOIN claimed c ON c.id = b.id JOIN properties p ON p.id = b.property_id
          ), announced AS (
            UPDATE blocks b SET announced_until = r.released_until
            FROM reached r WHERE b.id = r.id AND r.released_until > r.announced_until
            RETURNING r.id, r.property_id, r.room_type_id, r.status,
                      to_char(r.announced_until, 'YYYY-MM-DD') AS announced_until,
                      to_char(r.released_until, 'YYYY-MM-DD') AS released_until,
                      to_char(r.end_date, 'YYYY-MM-DD') AS end_date
          )
          SELECT * FROM announced`
        const outbox = yield* EventOutbox
        yield* Effect.forEach(due, (block) => outbox.append(block.property_id, eventsOf(block)), { discard: true })
        return { claimed: due.length }
      }).pipe(sql.withTransaction)

    /** Announces every release passed at `now` (from `Clock` when omitted); answers how many blocks it wrote. */
    const release = (at?: Date) =>
      Effect.gen(function*() {
        const now = at ?? new Date(yield* Clock.currentTimeMillis)
        let total = 0
        for (;;) {
          const { claimed } = yield* batch(now)
          total += claimed
          if (claimed < releaseBatch) return total
        }
      }).pipe(Effect.orDie, withSpan("BlockReleaser.release"))

    return { release } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}

/** The releaser as a background fiber of the layer's scope; a failed run is logged and the next runs as usual. */
export const BlockReleaserLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const releaser = yield* BlockReleaser
    const once = releaser.release().pipe(
      Effect.uninterruptible,
      Effect.catchCause((cause) => Effect.logWarning("Block release failed", Cause.pretty(cause)))
    )
    yield* Effect.forkScoped(Effect.repeat(once, Schedule.spaced(releaseInterval)))
  })
).pipe(Layer.provide(BlockReleaser.layer))
