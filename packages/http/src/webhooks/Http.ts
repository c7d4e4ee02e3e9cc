import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { WebhookEndpoints } from "@hotel/persistence/webhooks/WebhookEndpoints"
import * as Effect from "effect/Effect"
import { HotelApi } from "@hotel/api/Api"
import { taggedJson } from "../platform/ConditionalRead.js"
import { WebhookEndpoint } from "@hotel/api/webhooks/Api"
import { CurrentApiKey } from "@hotel/api/common/Security"
import { presentEndpoint } from "@hotel/persistence/webhooks/WebhookView"
import { presentAttempt } from "./WebhookPresenter.js"
import * as Layer from "effect/Layer"

const WebhookHandlers = HttpApiBuilder.group(HotelApi, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const endpoints = yield* WebhookEndpoints
    const property = Effect.map(CurrentApiKey, (key) => key.propertyId)
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const created = yield* endpoints.create(yield* property, {
            url: payload.url,
            eventTypes: payload.event_types,
            description: payload.description ?? null
          })
          return { webhook_endpoint_id: created.id, secret: created.secret }
        }))
      .handle("list", () =>
        Effect.map(Effect.flatMap(property, endpoints.list), (rows) => ({ data: rows.map(presentEndpoint) })))
      .handle("get", ({ params }) =>
        Effect.map(Effect.flatMap(property, (id) => endpoints.get(id, params.id)), (row) => taggedJson(WebhookEndpoint, presentEndpoint(row))))
      .handle("update", ({ headers, params, payload }) =>
        Effect.gen(function*() {
          yield* endpoints.update(yield* property, params.id, {
            url: payload.url,
            eventTypes: payload.event_types,
            description: payload.description,
            isActive: payload.is_active
          }, headers["if-match"])
          return { webhook_endpoint_id: params.id, updated: true as const }
        }))
      .handle("delete", ({ headers, params }) =>
        Effect.gen(function*() {
          yield* endpoints.remove(yield* property, params.id, headers["if-match"])
          return { webhook_endpoint_id: params.id, deleted: true as const }
        }))
      .handle("deliveries", ({ params }) =>
        Effect.gen(function*() {
          const rows = yield* endpoints.deliveries(yield* property, params.id)
          return { data: rows.map(presentAttempt) }
        }))
      .handle("redeliver", ({ params, payload }) =>
        Effect.gen(function*() {
          yield* endpoints.redeliver(yield* property, params.id, payload.event_id)
          return { event_id: payload.event_id, queued: true as const }
        }))
  }))

/** The `webhooks` feature: its handlers with the services they call (the database, the event outbox and the clock come from outside). */
export const HttpWebhooksLive = WebhookHandlers.pipe(Layer.provide(WebhookEndpoints.layer))
