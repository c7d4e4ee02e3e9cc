import * as SqlClient from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"
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

/** Events rendered for their rows: what `eventRows` inserts. */
export interface RenderedEvents {
  readonly propertyId: string
  readonly at: Date
  readonly rows: ReadonlyArray<{ readonly id: string; readonly type: Events.EventType; readonly data: string }>
}

export interface EventOutboxService {
  /** Appends the events in their order (their sequence numbers follow it), in one statement. */
  readonly append: (propertyId: string, events: ReadonlyArray<PendingEvent>) => Effect.Effect<void>
  /**
   * The events rendered now, for a writer that inserts them in its own statement with `eventRows` (a hold: its
   * events ride on its insert, one round trip fewer under the room type's lock).
   */
  readonly render: (propertyId: string, events: ReadonlyArray<PendingEvent>) => Effect.Effect<RenderedEvents>
}

/**
 * The events' rows and one pending delivery per matching active webhook endpoint, as the data-modifying CTEs
 * `e` and `d` of a writer's statement, written only when `when` holds (a hold's: its reservation was inserted).
 * Rows are inserted in the order given, so the commit-time sequence keeps that order.
 */
export const eventRows = (sql: SqlClient.SqlClient, rendered: RenderedEvents, when: Fragment) => {
  const { at, propertyId } = rendered
  const values = rendered.rows.map(({ data, id, type }) =>
    sql`(${id}, ${propertyId}::uuid, ${type}, ${data}::jsonb, ${at}::timestamptz)`
  )
  return sql`
    e AS (
      INSERT INTO events (id, property_id, type, data, created_at)
      SELECT v.id, v.property_id, v.type, v.data, v.created_at
      FROM (VALUES ${sql.csv(values)}) AS v(id, property_id, type, data, created_at)
      WHERE ${when}
      RETURNING id, type
    ), d AS (
      INSERT INTO webhook_deliveries (endpoint_id, event_id, status, next_attempt_at, created_at)
      SELECT w.id, e.id, 'pending', ${at}, ${at} FROM e JOIN webhook_endpoints w
        ON w.property_id = ${propertyId} AND w.deleted_at IS NULL AND w.is_active
        AND (e.type = ANY(w.event_types) OR '*' = ANY(w.event_types))
    )`
}

export class EventOutbox extends Context.Service<EventOutbox, EventOutboxService>()("@hotel/persistence/events/EventOutbox") {
  /** The outbox on Postgres; needs an `EventRenderer` (`EventsLive` provides both). */
  static readonly layer = Layer.effect(
    EventOutbox,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const renderer = yield* EventRenderer
      const render = (propertyId: string, events: ReadonlyArray<PendingEvent>) =>
        Effect.gen(function*() {
          const at = new Date(yield* Clock.currentTimeMillis)
          const rows = yield* Effect.forEach(events, ({ subject, type }) =>
            Effect.map(subject.kind === "rendered" ? Effect.succeed(subject.data) : renderer.render(propertyId, subject, at), (data) => ({
              id: Events.eventIdFrom(globalThis.crypto.getRandomValues(new Uint8Array(16))),
              type,
              data: JSON.stringify(data)
            })))
          const rendered: RenderedEvents = { propertyId, at, rows }
          return rendered
        })
      const append = (propertyId: string, events: ReadonlyArray<PendingEvent>) =>
        // A change that changed nothing (an import of the same file) has nothing to say.
        (events.length === 0 ? Effect.void : Effect.flatMap(render(propertyId, events), (rendered) =>
          // The events and their deliveries in one statement (one round trip inside the writer's transaction).
          Effect.asVoid(sql`WITH ${eventRows(sql, rendered, sql.literal("true"))} SELECT 1`))).pipe(
          Effect.orDie,
          withSpan("EventOutbox.append", { attributes: { types: events.map((event) => event.type).join(",") } })
        )
      return { append, render: (propertyId, events) => render(propertyId, events).pipe(withSpan("EventOutbox.render")) }
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
