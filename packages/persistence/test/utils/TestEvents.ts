import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { EventOutbox } from "../../src/events/EventOutbox.js"
import { EventRenderer } from "../../src/events/EventRenderer.js"

/**
 * The real outbox (events written to Postgres in the writer's transaction) for tests below the HTTP layer,
 * whose presenters render an event's `data`: here the data is the subject itself, which says what changed.
 */
export const TestEventsLayer = EventOutbox.layer.pipe(
  Layer.provide(Layer.succeed(EventRenderer, EventRenderer.of({ render: (_propertyId, subject) => Effect.succeed(subject) })))
)
