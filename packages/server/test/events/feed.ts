import type { EventFeedParams } from "@hotel/api/events/Api"
import { type Event, EventPage, TypesParam } from "@hotel/api/events/schemas"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { bodyAs, clientOf } from "../utils/client.js"
import type { TestApiService } from "../utils/TestServer.js"

/** An event of the feed (the contract's `Event`), its `data` read as the object every event type's data is. */
export type EventWire = Omit<typeof Event.Type, "data"> & { readonly data: Record<string, unknown> }

const asObject = Schema.decodeUnknownSync(Schema.Record(Schema.String, Schema.Unknown))

const withData = (event: typeof Event.Type): EventWire => ({ ...event, data: asObject(event.data) })

/** `GET /events{query}` as raw HTTP, for malformed or refused queries: the response, and its page when 200. */
export const feed = (api: TestApiService, query = "", key?: string) =>
  Effect.map(
    api.get(`/events${query}`, key === undefined ? {} : { key }),
    (res) => ({ res, page: res.status === 200 ? bodyAs(res, EventPage) : undefined })
  )

/** One page of the feed through the typed client (with `key`, or the fixture's key). */
export const feedPage = (api: TestApiService, params: typeof EventFeedParams.Type = {}, key?: string) =>
  Effect.flatMap(clientOf(api, key === undefined ? {} : { key }), (client) => client.events.list({ query: params }))
    .pipe(Effect.map((page) => ({ has_more: page.has_more, data: page.data.map(withData) })))

/**
 * Every event of the key's property, following `has_more`: after the event `after` when given (a test's
 * property starts with its import's `rate_plan.created` events), of the comma-separated `types` when given.
 */
export const allEvents = (api: TestApiService, key?: string, options: { readonly after?: string; readonly types?: string } = {}) =>
  Effect.gen(function*() {
    const events: Array<EventWire> = []
    const types = options.types === undefined ? {} : { types: Schema.decodeUnknownSync(TypesParam)(options.types) }
    for (;;) {
      const last = events.length === 0 ? options.after : events[events.length - 1].id
      const page = yield* feedPage(api, { limit: 500, ...types, ...(last === undefined ? {} : { after: last }) }, key)
      events.push(...page.data)
      if (!page.has_more) return events
    }
  })
