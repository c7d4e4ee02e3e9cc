import type { PendingEvent } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"

/** An inventory write's events: `inventory.changed` and `availability.changed`, for the same nights. */
export const inventoryEvents = (roomTypeId: string, startDate: string, endDate: string): ReadonlyArray<PendingEvent> => [
  { type: "inventory.changed", subject: Subject.inventory(roomTypeId, startDate, endDate) },
  { type: "availability.changed", subject: Subject.availability(roomTypeId, startDate, endDate) }
]
