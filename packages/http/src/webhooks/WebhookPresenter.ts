import type { DeliveryAttemptRow, WebhookEndpointRow } from "@hotel/persistence/webhooks/WebhookEndpoints"
import type { DeliveryAttempt, WebhookEndpoint } from "./Api.js"

export const presentEndpoint = (row: WebhookEndpointRow): typeof WebhookEndpoint.Type => ({
  id: row.id,
  url: row.url,
  event_types: row.event_types,
  description: row.description,
  is_active: row.is_active,
  created_at: row.created_at.toISOString()
})

export const presentAttempt = (row: DeliveryAttemptRow): typeof DeliveryAttempt.Type => ({
  event_id: row.event_id,
  type: row.event_type,
  attempt: row.attempt,
  status: row.status,
  response_status: row.response_status,
  error: row.error,
  attempted_at: row.attempted_at.toISOString(),
  next_attempt_at: row.next_attempt_at?.toISOString() ?? null
})
