import * as Layer from "effect/Layer"
import { EventOutbox } from "./EventOutbox.js"
import { EventRendererLive } from "./EventRendererLive.js"

/**
 * The outbox every write service appends to, and the renderer it renders data with, which write services also
 * use to check `If-Match` inside their transaction; needs a `SqlClient`.
 */
export const EventsLive = EventOutbox.layer.pipe(Layer.provideMerge(EventRendererLive))
