import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { EventFeed } from "@hotel/persistence/events/EventFeed"
import * as Effect from "effect/Effect"
import { HotelApi } from "@hotel/api/Api"
import { CurrentApiKey } from "@hotel/api/common/Security"
import { presentEvent } from "./EventPresenter.js"
import * as Layer from "effect/Layer"

const EventHandlers = HttpApiBuilder.group(HotelApi, "events", (handlers) =>
  Effect.gen(function*() {
    const feed = yield* EventFeed
    return handlers.handle("list", ({ query }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const page = yield* feed.page(key.propertyId, {
          after: query.after,
          types: query.types,
          limit: query.limit ?? 100
        })
        return { data: page.rows.map(presentEvent), has_more: page.hasMore }
      }))
  }))

/** The `events` feature: its handlers with the services they call (the database, the event outbox and the clock come from outside). */
export const HttpEventsLive = EventHandlers.pipe(Layer.provide(EventFeed.layer))
