import * as SqlClient from "effect/sql/SqlClient"
import { Booking } from "@hotel/domain"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { appendStayChange } from "../events/EventOutbox.js"
import { expiredHold } from "./HoldWindow.js"
import * as Metric from "effect/Metric"
import { holdsExpired } from "./BookingMetrics.js"
import { withSpan } from "../database/Span.js"

interface SweptHold {
  readonly id: string
  readonly property_id: string
  readonly room_type_id: string
  readonly check_in_date: string
  readonly check_out_date: string
}

// Writes down expired holds. Nothing depends on it running: inventory, redemption counts and
// reads already treat a tentative reservation as expired from the instant `hold_expires_at` passes, and
// confirm/cancel refuse it (409 `hold_expired` / `not_cancellable`). The sweeper makes the stored state say so:
// status `cancelled`, reason `hold_expired`, `cancelled_at` = the instant the window lapsed, folio voided,
// accommodation cancelled.
//
// One statement per batch, safe in every process at once: the expired rows are claimed with
// `FOR UPDATE SKIP LOCKED`, so two sweepers never wait on (or deadlock with) each other, and a hold that a
// confirm or cancel has locked is left to that transaction (which sees it expired and refuses it).

/** Expired holds written down per statement; the sweep repeats until a batch comes back short. */
export const sweepBatch = 500

/** How often a server process sweeps. */
export const sweepInterval = Duration.seconds(5)

export class HoldSweeper extends Context.Service<HoldSweeper>()("@hotel/persistence/booking/HoldSweeper", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // Each batch is one transaction with its events: `reservation.expired` and `availability.changed` per hold.
    const batch = (now: Date) =>
      Effect.gen(function*() {
        const swept = yield* sql<SweptHold>`
          WITH expired AS (
            SELECT id FROM reservations
            WHERE ${expiredHold(sql, "reservations", now)}
            ORDER BY hold_expires_at, id
            LIMIT ${sweepBatch}
            FOR UPDATE SKIP LOCKED
          ),
          cancelled AS (
            UPDATE reservations r
            SET status = 'cancelled', cancellation_reason = ${Booking.holdExpiredReason},
                cancelled_at = r.hold_expires_at, updated_at = ${now}
            FROM expired e WHERE r.id = e.id
            RETURNING r.id, r.property_id, r.room_type_id, r.check_in_date, r.check_out_date
          ),
          voided AS (
            UPDATE folios f SET status = 'voided' FROM cancelled c WHERE f.reservation_id = c.id RETURNING f.id
          ),
          legs AS (
            UPDATE accommodations a SET status = 'cancelled' FROM cancelled c WHERE a.reservation_id = c.id
            RETURNING a.id
          )
          SELECT * FROM cancelled`
        yield* Effect.forEach(swept, (hold) =>
          appendStayChange(hold.property_id, "reservation.expired", hold, {
            roomTypeId: hold.room_type_id,
            checkIn: hold.check_in_date,
            checkOut: hold.check_out_date
          }), { discard: true })
        return swept.length
      }).pipe(sql.withTransaction, Effect.tap((swept) => Metric.update(holdsExpired, swept)))

    /** Writes down every hold expired at `now` (from `Clock` when omitted); answers how many. */
    const sweep = (at?: Date) =>
      Effect.gen(function*() {
        const now = at ?? new Date(yield* Clock.currentTimeMillis)
        let total = 0
        for (;;) {
          const swept = yield* batch(now)
          total += swept
          if (swept < sweepBatch) return total
        }
      }).pipe(Effect.orDie, withSpan("HoldSweeper.sweep"))

    return { sweep } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}

/**
 * The sweeper as a background fiber of the layer's scope: a sweep every `sweepInterval`; a failed sweep is
 * logged and the next one runs as usual.
 */
export const HoldSweeperLive = Layer.effectDiscard(
  Effect.gen(function*() {
    const sweeper = yield* HoldSweeper
    // A sweep under way is never interrupted (an interrupted query would be cancelled through the pool);
    // only the wait between sweeps is.
    const once = sweeper.sweep().pipe(
      Effect.uninterruptible,
      Effect.tap((swept) => (swept > 0 ? Effect.logInfo(`Expired holds written down: ${swept}`) : Effect.void)),
      Effect.catchCause((cause) => Effect.logWarning("Hold sweep failed", Cause.pretty(cause)))
    )
    yield* Effect.forkScoped(Effect.repeat(once, Schedule.spaced(sweepInterval)))
  })
).pipe(Layer.provide(HoldSweeper.layer))
