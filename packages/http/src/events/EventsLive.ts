import { EventOutbox } from "@hotel/persistence/events/EventOutbox"
import * as Layer from "effect/Layer"
import { EventRendererLive } from "./renderer.js"

/** The outbox every write service appends to, rendering data with the API's presenters; needs a `SqlClient`. */
export const EventsLive = EventOutbox.layer.pipe(Layer.provide(EventRendererLive))
