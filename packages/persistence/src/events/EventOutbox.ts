import * as SqlClient from "@effect/sql/SqlClient"
import { Events } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ReservationRead } from "../booking/ReservationColumns.js"
import { EventRenderer } from "./EventRenderer.js"
import { type EventSubject, Subject } from "./EventSubject.js"
import { withSpan } from "../database/Span.js"

// The transactional outbox. A write service calls `appendEvent` inside its own transaction,
// after its change: the event row and one pending delivery per matching active webhook endpoint are written on
// the same connection, so they commit or roll back with the change. The sequence number is given at commit
// by the database (see migration 0007), never here.

/** One event to append: its type and what its data is rendered from (or the data, `Subject.rendered`). */
export interface PendingEvent {
  readonly type: Events.EventType
  readonly subject: EventSubject
}

export interface EventOutboxService {
  /** Appends the events in their order (their sequence numbers follow it), in one statement. */
  readonly append: (propertyId: string, events: ReadonlyArray<PendingEvent>) => Effect.Effect<void>
}

export class EventOutbox extends Context.Tag("@hotel/persistence/events/EventOutbox")<EventOutbox, EventOutboxService>() {
  /** The outbox on Postgres; needs an `EventRenderer` (`EventsLive` provides both). */
  static readonly layer = Layer.effect(
    EventOutbox,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const renderer = yield* EventRenderer
      const append = (propertyId: string, events: ReadonlyArray<PendingEvent>) =>
        Effect.gen(function*() {
          // A change that changed nothing (an import of the same file) has nothing to say.
          if (events.length === 0) return
          const now = new Date(yield* Clock.currentTimeMillis)
          const rows = yield* Effect.forEach(events, ({ subject, type }) =>
            Effect.map(subject.kind === "rendered" ? Effect.succeed(subject.data) : renderer.render(propertyId, subject, now), (data) => {
              const id = Events.eventIdFrom(globalThis.crypto.getRandomValues(new Uint8Array(16)))
              return sql`(${id}, ${propertyId}, ${type}, ${JSON.stringify(data)}::jsonb, ${now})`
            }))
          // The events and their deliveries in one statement (one round trip inside the writer's transaction).
          // Rows are inserted in the order given, so the commit-time sequence keeps that order.
          yield* sql`
            WITH e AS (
              INSERT INTO events (id, property_id, type, data, created_at) VALUES ${sql.csv(rows)}
              RETURNING id, type
            )
            INSERT INTO webhook_deliveries (endpoint_id, event_id, status, next_attempt_at, created_at)
            SELECT w.id, e.id, 'pending', ${now}, ${now} FROM e JOIN webhook_endpoints w
              ON w.property_id = ${propertyId} AND w.deleted_at IS NULL AND w.is_active
              AND (e.type = ANY(w.event_types) OR '*' = ANY(w.event_types))`
        }).pipe(
          Effect.orDie,
          withSpan("EventOutbox.append", { attributes: { types: events.map((event) => event.type).join(",") } })
        )
      return { append }
    })
  )
}

/**
 * Appends one event for a change; call it inside the change's transaction, after the change (for a
 * `*.deleted` event: before the deletion, so the data is the resource as it was).
 */
export const appendEvent = (
  propertyId: string,
  type: Events.EventType,
  subject: EventSubject
): Effect.Effect<void, never, EventOutbox> =>
  Effect.flatMap(EventOutbox, (outbox) => outbox.append(propertyId, [{ type, subject }]))

/** The nights of a stay whose availability a change took or freed. */
export interface StayNights {
  readonly roomTypeId: string
  readonly checkIn: string
  readonly checkOut: string
}

/**
 * A reservation change that also takes or frees nights (hold, cancellation, expiry, no-show): its reservation
 * event (rendered from `read` when the writer has the reservation as read), then `availability.changed` for
 * the stay's nights.
 */
export const appendStayChange = (
  propertyId: string,
  type: Events.EventType,
  reservation: { readonly id: string; readonly refundDueMinor?: bigint; readonly read?: ReservationRead },
  nights: StayNights
): Effect.Effect<void, never, EventOutbox> =>
  Effect.flatMap(EventOutbox, (outbox) =>
    outbox.append(propertyId, [
      { type, subject: Subject.reservation(reservation.id, reservation.refundDueMinor, reservation.read) },
      { type: "availability.changed", subject: Subject.availability(nights.roomTypeId, nights.checkIn, nights.checkOut) }
    ]))
