import type { EventRow } from "@hotel/persistence/events/EventFeed"
import type { Event } from "@hotel/api/events/schemas"

export const presentEvent = (row: EventRow): typeof Event.Type => ({
  id: row.id,
  type: row.type,
  sequence: Number(row.sequence),
  created_at: row.created_at.toISOString(),
  data: row.data
})
