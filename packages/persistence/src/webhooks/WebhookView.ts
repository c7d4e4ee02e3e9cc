import { timestamp } from "@hotel/domain/common/Format"
import type { WebhookEndpointRow } from "./WebhookEndpoints.js"

/** An endpoint as `GET /webhook-endpoints/{id}` writes it, the representation its `If-Match` is checked on. */
export const presentEndpoint = (row: WebhookEndpointRow) => ({
  id: row.id,
  url: row.url,
  event_types: row.event_types,
  description: row.description,
  is_active: row.is_active,
  created_at: timestamp(row.created_at)
})
