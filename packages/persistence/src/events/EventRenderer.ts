import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { EventSubject } from "./EventSubject.js"

/**
 * Renders a subject as the API's `GET` of it would answer at `now`: an event's `data`, and the representation
 * an `If-Match` is checked on (`EntityTag.requireCurrentTag`). It reads through the same queries and views
 * (`…View.ts` in each feature folder, which the HTTP handlers answer with too) on the caller's transaction, so
 * it sees the state the change is about to commit. A subject that cannot be read is a defect (the writer just
 * wrote it). A tag rather than a service class only so the write services that name it do not import the
 * repositories it reads through (`./EventRendererLive.ts`, provided with the outbox: `EventsLive`).
 */
export class EventRenderer extends Context.Service<EventRenderer, {
  readonly render: (propertyId: string, subject: EventSubject, now: Date) => Effect.Effect<unknown>
}>()("@hotel/persistence/events/EventRenderer") {}
