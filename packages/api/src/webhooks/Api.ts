import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import { boundedString, Events, Text, WebhookEndpointNotFound } from "@hotel/domain"
import * as Schema from "effect/Schema"
import { IdempotentHeaders } from "../common/IdempotencyKey.js"
import { created, describedAs, EventId, eventIdPattern, Id, IdParam, ListOf, Timestamp } from "../common/Common.js"
import { NotFoundAs, RequiredScope } from "../common/Security.js"
import { doc, tag } from "../openapi/Docs.js"
import { EntityTagged, IfMatchHeaders } from "../common/EntityTags.js"
import * as Errors from "../common/Errors.js"

/**
 * A list of event types, or `["*"]` for every type; each entry is checked on its own (`event_types[i]`). At
 * most 100 entries (there are far fewer types); one listed twice is kept once.
 */
const EventTypes = Schema.Array(Schema.Union([Events.EventType, Schema.Literal("*")])).check(
  Schema.isMinLength(1, { message: "must list at least one event type, or \"*\"" }),
  Schema.isMaxLength(100, { message: "must list at most 100 event types" })
)

const Url = boundedString(1, 2048)
const Description = Schema.NullOr(boundedString(0, 500))

export const NewWebhookEndpoint = Schema.Struct({
  url: Url,
  event_types: EventTypes,
  description: Schema.optionalKey(Description)
}).annotate({ identifier: "WebhookEndpointCreate" })

export const WebhookEndpointPatch = Schema.Struct({
  url: Schema.optionalKey(Url),
  event_types: Schema.optionalKey(EventTypes),
  description: Schema.optionalKey(Description),
  is_active: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "WebhookEndpointPatch" })

export const WebhookEndpoint = Schema.Struct({
  id: Id,
  url: Schema.String,
  event_types: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String),
  is_active: Schema.Boolean,
  created_at: Timestamp
}).annotate({ identifier: "WebhookEndpoint" })

export const DeliveryAttempt = Schema.Struct({
  event_id: EventId,
  type: Schema.String,
  attempt: Schema.Int,
  status: Schema.Literals(["succeeded", "failed", "pending"]),
  response_status: Schema.NullOr(Schema.Int),
  error: Schema.NullOr(Schema.String),
  attempted_at: Timestamp,
  next_attempt_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "DeliveryAttempt" })

/** Webhook endpoints: reads need `webhooks:read`, writes `webhooks:write`. */
export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .annotateMerge(tag("Events and webhooks", "Every change to the property as an event."))
  .add(
    HttpApiEndpoint.post("create", "/webhook-endpoints", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      payload: NewWebhookEndpoint,
      success: created(Schema.Struct({ webhook_endpoint_id: Id, secret: Schema.String }).annotate({ identifier: "WebhookEndpointCreated" }))
    })
      .annotateMerge(doc("Create a webhook endpoint", "Subscribes a URL to event types; the answer carries the signing secret, shown only once."))
  )
  .add(
    HttpApiEndpoint.get("list", "/webhook-endpoints", {
      disableCodecs: true,
      success: ListOf(WebhookEndpoint)
    })
      .annotateMerge(doc("List webhook endpoints", "The property's webhook endpoints."))
      .annotate(RequiredScope, "webhooks:read")
  )
  .add(
    HttpApiEndpoint.get("get", "/webhook-endpoints/:id", {
      disableCodecs: true,
      params: IdParam,
      success: WebhookEndpoint
    })
      .annotateMerge(doc("Get a webhook endpoint", "One webhook endpoint."))
      .annotate(RequiredScope, "webhooks:read")
      .annotateMerge(EntityTagged)
  )
  .add(
    HttpApiEndpoint.patch("update", "/webhook-endpoints/:id", {
      disableCodecs: true,
      params: IdParam,
      payload: WebhookEndpointPatch,
      headers: IfMatchHeaders,
      success: Schema.Struct({ webhook_endpoint_id: Id, updated: Schema.Literal(true) }).annotate({ identifier: "WebhookEndpointUpdated" }),
      error: [Errors.PreconditionFailed]
    })
      .annotateMerge(doc("Update a webhook endpoint", "Changes the URL, the event types, the description or whether it is active."))
  )
  .add(
    HttpApiEndpoint.delete("delete", "/webhook-endpoints/:id", {
      disableCodecs: true,
      params: IdParam,
      headers: IfMatchHeaders,
      success: Schema.Struct({ webhook_endpoint_id: Id, deleted: Schema.Literal(true) }).annotate({ identifier: "WebhookEndpointDeleted" }),
      error: [Errors.PreconditionFailed]
    })
      .annotateMerge(doc("Delete a webhook endpoint", "Stops deliveries to the endpoint and removes it."))
  )
  .add(
    HttpApiEndpoint.get("deliveries", "/webhook-endpoints/:id/deliveries", {
      disableCodecs: true,
      params: IdParam,
      success: ListOf(DeliveryAttempt)
    })
      .annotateMerge(doc("List an endpoint's deliveries", "The delivery attempts to the endpoint with their outcome."))
      .annotate(RequiredScope, "webhooks:read")
  )
  .add(
    HttpApiEndpoint.post("redeliver", "/webhook-endpoints/:id/redeliver", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Schema.Struct({ event_id: Text.check(describedAs(eventIdPattern)) }).annotate({ identifier: "Redelivery" }),
      success: Schema.Struct({ event_id: EventId, queued: Schema.Literal(true) }).annotate({ identifier: "RedeliveryQueued" })
    })
      .annotateMerge(doc("Redeliver an event", "Queues the event again for the endpoint."))
  )
  .annotate(RequiredScope, "webhooks:write")
  .annotate(NotFoundAs, WebhookEndpointNotFound)
{}

/** The `webhooks` feature's endpoint groups: webhook endpoints and their deliveries. `Api.ts` adds them to `HotelApi`. */
export const WebhooksGroups = HttpApi.make("hotel")
  .add(WebhooksApi)
