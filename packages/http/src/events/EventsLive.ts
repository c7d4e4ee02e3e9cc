import { EventOutbox } from "@hotel/persistence/events/EventOutbox"
import * as Layer from "effect/Layer"
import { EventRendererLive } from "./renderer.js"

/**
 * The outbox every write service appends to, rendering data with the API's presenters, and that renderer,
 * which write services also use to check `If-Match` inside their transaction; needs a `SqlClient`.
 */
export const EventsLive = EventOutbox.layer.pipe(Layer.provideMerge(EventRendererLive))
