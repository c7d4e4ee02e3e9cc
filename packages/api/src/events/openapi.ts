import { Events } from "@hotel/domain"
import * as JsonSchema from "effect/JsonSchema"
import * as Schema from "effect/Schema"
import { child } from "../openapi/Spec.js"
import { Event, eventData } from "./schemas.js"

type Spec = Record<string, unknown>

/** An event type's payload as JSON Schema; shared definitions go to the document's components. */
const eventSchema = (type: Events.EventType, components: Record<string, unknown>): JsonSchema.JsonSchema => {
  const document = Schema.toJsonSchemaDocument(
    Schema.Struct({ ...Event.fields, type: Schema.Literal(type), data: eventData[type] }),
    { onExcessProperty: "error" }
  )
  const openApi = JsonSchema.toMultiDocumentOpenApi3_1({
    dialect: document.dialect,
    schemas: [document.schema],
    definitions: document.definitions
  })
  for (const [name, definition] of Object.entries(openApi.definitions)) {
    if (!Object.hasOwn(components, name)) components[name] = definition
  }
  return openApi.schemas[0] ?? {}
}

const signatureHeaders = {
  "webhook-id": { description: "The event id; receivers dedupe on it", schema: { type: "string" } },
  "webhook-timestamp": { description: "Unix seconds of the attempt", schema: { type: "string" } },
  "webhook-signature": {
    description: "`v1,` + base64(HMAC-SHA256(base64-decoded secret after `whsec_`, `{id}.{timestamp}.{body}`))",
    schema: { type: "string" }
  }
}

/** `reservation.held` → `ReservationHeldEvent`: the component of that type's event. */
const componentName = (type: Events.EventType): string =>
  type.split(/[._]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("") + "Event"

const ref = (type: Events.EventType) => ({ $ref: `#/components/schemas/${componentName(type)}` })

/**
 * An event of any type: one of the per-type components, told apart by `type`, so a generated client narrows
 * `data` by checking `type`. The feed's schema cannot say it (its `data` is whatever the row holds).
 */
const anyEvent = {
  oneOf: Events.eventTypes.map(ref),
  // The mapping: without one, generators take the component names for the values of `type`.
  discriminator: {
    propertyName: "type",
    mapping: Object.fromEntries(Events.eventTypes.map((type) => [type, ref(type).$ref]))
  }
}

/**
 * Each event type's component (the envelope with that `type` and its `data`), the feed's items as their
 * union discriminated by `type` (`EventPage`), and the OpenAPI 3.1 `webhooks` section: one entry per event
 * type, each the POST a subscribed endpoint receives.
 */
export const withEventWebhooks = (spec: Spec, components: Record<string, unknown>): Spec => {
  for (const type of Events.eventTypes) components[componentName(type)] = eventSchema(type, components)
  child(child(child(components, "EventPage"), "properties"), "data").items = anyEvent
  return { ...spec, webhooks: webhooks() }
}

const webhooks = () =>
  Object.fromEntries(Events.eventTypes.map((type) => [type, {
    post: {
      operationId: `event.${type}`,
      summary: `Event ${type}`,
      description: `What a webhook endpoint subscribed to \`${type}\` receives: the event as the feed ` +
        "(`GET /events`) shows it, signed with the endpoint's secret.",
      parameters: Object.entries(signatureHeaders).map(([name, header]) => ({ name, in: "header", required: true, ...header })),
      requestBody: { required: true, content: { "application/json": { schema: ref(type) } } },
      responses: { "2XX": { description: "Delivered; any other answer (or none within 10 s) is retried" } }
    }
  }]))
