import * as SqlClient from "effect/sql/SqlClient"
import { Events, InvalidParameters } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { withSpan } from "../database/Span.js"

// The event feed of a property, in `sequence` order. Sequences are given at commit, so a
// committed event never appears behind one already read (see migration 0007).

export interface EventRow {
  readonly id: string
  readonly type: Events.EventType
  readonly sequence: string
  readonly data: unknown
  readonly created_at: Date
}

export interface FeedQuery {
  readonly after: string | undefined
  readonly types: ReadonlyArray<Events.EventType> | undefined
  readonly limit: number
}

export class EventFeed extends Context.Service<EventFeed>()("@hotel/persistence/events/EventFeed", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** The sequence of event `after` of this property; an unknown (or purged) id is 400 `after`. */
    const position = (propertyId: string, after: string | undefined) =>
      after === undefined
        ? Effect.succeed(0n)
        : sql<{ sequence: string }>`
            SELECT sequence::text AS sequence FROM events
            WHERE property_id = ${propertyId} AND id = ${after} AND sequence IS NOT NULL`.pipe(
            Effect.orDie,
            Effect.flatMap((rows) =>
              rows[0] === undefined
                ? Effect.fail(new InvalidParameters({ message: `after: no event ${after}`, param: "after" }))
                : Effect.succeed(BigInt(rows[0].sequence))
            )
          )

    const page = (propertyId: string, query: FeedQuery) =>
      Effect.gen(function*() {
        const from = yield* position(propertyId, query.after)
        const conditions = [
          sql`property_id = ${propertyId}`,
          sql`sequence > ${from.toString()}::bigint`,
          ...(query.types === undefined ? [] : [sql`type = ANY(${[...query.types]}::text[])`])
        ]
        const rows = yield* sql<EventRow>`
          SELECT id, type, sequence::text AS sequence, data, created_at FROM events
          -- sequence is read as text (a bigint); order by the column, not by that text.
          WHERE ${sql.and(conditions)}
          ORDER BY events.sequence
          LIMIT ${query.limit + 1}`.pipe(Effect.orDie)
        return { rows: rows.slice(0, query.limit), hasMore: rows.length > query.limit }
      }).pipe(withSpan("EventFeed.page"))

    /** The id of the property's latest event, if any (where a tail starts). */
    const latest = (propertyId: string) =>
      sql<{ id: string }>`
        SELECT id FROM events WHERE property_id = ${propertyId} AND sequence IS NOT NULL
        ORDER BY events.sequence DESC LIMIT 1`.pipe(Effect.orDie, Effect.map((rows) => rows[0]?.id))

    return { page, latest } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
