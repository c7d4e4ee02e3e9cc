import type { DeliveryAttemptRow } from "@hotel/persistence/webhooks/WebhookEndpoints"
import type { DeliveryAttempt } from "@hotel/api/webhooks/Api"

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
