import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { EventSubject } from "./EventSubject.js"

/**
 * Renders an event's `data`: the subject as the API's `GET` of it would answer at `now`. The wire shapes
 * belong to the HTTP layer, so the implementation is provided from there (dependency inversion); it reads
 * through the same queries and presenters as the `GET` handlers, on the caller's transaction, so the data is
 * the state the change is about to commit. A subject that cannot be read is a defect (the writer just wrote it).
 *
 * The single exception to the one-way dependency arrow (server → http → persistence → domain): an event's
 * payload is the resource as its `GET` renders it, and only the HTTP layer knows that shape, so the renderer
 * is provided by http (events/EventsLive.ts, renderer.ts). Persistence only names the interface here and
 * imports nothing from http; the server composes the two.
 */
export class EventRenderer extends Context.Tag("@hotel/persistence/events/EventRenderer")<EventRenderer, {
  readonly render: (propertyId: string, subject: EventSubject, now: Date) => Effect.Effect<unknown>
}>() {}
