import { Events } from "@hotel/domain"
import * as JsonSchema from "effect/JsonSchema"
import * as Schema from "effect/Schema"
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

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type, each the POST a subscribed endpoint receives,
 * with the event envelope and that type's `data`.
 */
export const withEventWebhooks = (spec: Spec, components: Record<string, unknown>): Spec => ({
  ...spec,
  webhooks: Object.fromEntries(Events.eventTypes.map((type) => [type, {
    post: {
      operationId: `event.${type}`,
      summary: `Event ${type}`,
      description: `What a webhook endpoint subscribed to \`${type}\` receives: the event as the feed ` +
        "(`GET /events`) shows it, signed with the endpoint's secret.",
      parameters: Object.entries(signatureHeaders).map(([name, header]) => ({ name, in: "header", required: true, ...header })),
      requestBody: { required: true, content: { "application/json": { schema: eventSchema(type, components) } } },
      responses: { "2XX": { description: "Delivered; any other answer (or none within 10 s) is retried" } }
    }
  }]))
})
