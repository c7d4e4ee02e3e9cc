import * as SqlClient from "effect/sql/SqlClient"
import { Events, InvalidParameters, isUuid, WebhookEndpointNotFound } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { requireCurrentTag } from "../events/EntityTag.js"
import { Subject } from "../events/EventSubject.js"
import { newSecret } from "./Signature.js"
import { WebhookPolicy } from "./WebhookPolicy.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// Webhook endpoints of a property. The secret is stored to sign deliveries and returned only by
// `create`. A deleted endpoint is kept (soft delete) so its delivery history stays whole; it gets no new
// deliveries and its pending ones are not sent.

export interface WebhookEndpointRow {
  readonly id: string
  readonly url: string
  readonly event_types: ReadonlyArray<string>
  readonly description: string | null
  readonly is_active: boolean
  readonly created_at: Date
}

export interface DeliveryAttemptRow {
  readonly event_id: string
  readonly event_type: string
  readonly attempt: number
  readonly status: "succeeded" | "failed" | "pending"
  readonly response_status: number | null
  readonly error: string | null
  readonly attempted_at: Date
  readonly next_attempt_at: Date | null
}

export interface EndpointInput {
  readonly url: string
  readonly eventTypes: ReadonlyArray<string>
  readonly description: string | null
}

export interface EndpointPatch {
  readonly url?: string | undefined
  readonly eventTypes?: ReadonlyArray<string> | undefined
  readonly description?: string | null | undefined
  readonly isActive?: boolean | undefined
}

/** Attempts listed per endpoint, newest first. */
export const deliveriesListed = 100

const notFound = (id: string) => new WebhookEndpointNotFound({ message: `No webhook endpoint ${id}` })

const endpointColumns = (sql: SqlClient.SqlClient) => sql`id, url, event_types, description, is_active, created_at`

/** A property's live endpoint, optionally locked (`FOR NO KEY UPDATE`); also what `GET` and its tag read. */
export const findEndpoint = (sql: SqlClient.SqlClient, propertyId: string, id: string, lock: boolean) =>
  isUuid(id)
    ? sql<WebhookEndpointRow>`
        SELECT ${endpointColumns(sql)} FROM webhook_endpoints
        WHERE property_id = ${propertyId} AND id = ${id} AND deleted_at IS NULL
        ${lock ? sql`FOR NO KEY UPDATE` : sql.literal("")}`.pipe(
        Effect.flatMap((rows) => rows[0] === undefined ? Effect.fail(notFound(id)) : Effect.succeed(rows[0]))
      )
    : Effect.fail(notFound(id))

export class WebhookEndpoints extends Context.Service<WebhookEndpoints>()("@hotel/persistence/webhooks/WebhookEndpoints", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const policy = yield* WebhookPolicy
    const columns = endpointColumns(sql)

    const checkUrl = (url: string) => {
      const problem = Events.destinationProblem(url, policy.allowPrivate)
      return problem === null
        ? Effect.void
        : Effect.fail(new InvalidParameters({ message: `url: ${Events.problemMessage[problem]}`, param: "url" }))
    }

    const find = (propertyId: string, id: string, lock: boolean) => findEndpoint(sql, propertyId, id, lock)

    /** A type listed twice is stored once, in the order first given. */
    const distinct = (types: ReadonlyArray<string>): Array<string> => [...new Set(types)]

    const create = (propertyId: string, input: EndpointInput) =>
      Effect.gen(function*() {
        yield* checkUrl(input.url)
        const now = new Date(yield* Clock.currentTimeMillis)
        const secret = newSecret()
        const [row] = yield* sql<{ id: string }>`
          INSERT INTO webhook_endpoints (property_id, url, event_types, description, secret, created_at, updated_at)
          VALUES (${propertyId}, ${input.url}, ${distinct(input.eventTypes)}::text[], ${input.description}, ${secret},
                  ${now}, ${now})
          RETURNING id`
        return { id: row.id, secret }
      }).pipe(Effect.catchTag("SqlError", Effect.die), withSpan("WebhookEndpoints.create"))

    const list = (propertyId: string) =>
      sql<WebhookEndpointRow>`
        SELECT ${columns} FROM webhook_endpoints WHERE property_id = ${propertyId} AND deleted_at IS NULL
        ORDER BY created_at, id`.pipe(Effect.orDie, withSpan("WebhookEndpoints.list"))

    const get = (propertyId: string, id: string) =>
      find(propertyId, id, false).pipe(Effect.catchTag("SqlError", Effect.die), withSpan("WebhookEndpoints.get"))

    /** `ifMatch`: the `If-Match` header, checked under the row lock (see `EntityTag`). */
    const update = (propertyId: string, id: string, patch: EndpointPatch, ifMatch?: string) =>
      Effect.gen(function*() {
        if (patch.url !== undefined) yield* checkUrl(patch.url)
        const stored = yield* find(propertyId, id, true)
        yield* requireCurrentTag(propertyId, Subject.webhookEndpoint(id), ifMatch)
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* sql`
          UPDATE webhook_endpoints SET
            url = ${patch.url ?? stored.url},
            event_types = ${distinct(patch.eventTypes ?? stored.event_types)}::text[],
            description = ${patch.description === undefined ? stored.description : patch.description},
            is_active = ${patch.isActive ?? stored.is_active},
            updated_at = ${now}
          WHERE id = ${stored.id}`
      }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan("WebhookEndpoints.update"))

    const remove = (propertyId: string, id: string, ifMatch?: string) =>
      Effect.gen(function*() {
        const stored = yield* find(propertyId, id, true)
        yield* requireCurrentTag(propertyId, Subject.webhookEndpoint(id), ifMatch)
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* sql`UPDATE webhook_endpoints SET deleted_at = ${now}, updated_at = ${now} WHERE id = ${stored.id}`
      }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan("WebhookEndpoints.remove"))

    const deliveries = (propertyId: string, id: string) =>
      Effect.gen(function*() {
        const endpoint = yield* find(propertyId, id, false)
        return yield* sql<DeliveryAttemptRow>`
          SELECT event_id, event_type, attempt, status, response_status, error, attempted_at, next_attempt_at
          FROM webhook_delivery_attempts WHERE endpoint_id = ${endpoint.id}
          ORDER BY attempted_at DESC, id DESC
          LIMIT ${deliveriesListed}`
      }).pipe(Effect.catchTag("SqlError", Effect.die), withSpan("WebhookEndpoints.deliveries"))

    /** A new delivery of one of this property's events to the endpoint, due now. */
    const redeliver = (propertyId: string, id: string, eventId: string) =>
      Effect.gen(function*() {
        const endpoint = yield* find(propertyId, id, false)
        const now = new Date(yield* Clock.currentTimeMillis)
        const inserted = yield* sql`
          INSERT INTO webhook_deliveries (endpoint_id, event_id, status, next_attempt_at, created_at)
          SELECT ${endpoint.id}, e.id, 'pending', ${now}, ${now} FROM events e
          WHERE e.property_id = ${propertyId} AND e.id = ${eventId}
          RETURNING id`
        if (inserted.length === 0) {
          return yield* new InvalidParameters({ message: `event_id: no event ${eventId}`, param: "event_id" })
        }
      }).pipe(Effect.catchTag("SqlError", Effect.die), withSpan("WebhookEndpoints.redeliver"))

    return { create, list, get, update, remove, deliveries, redeliver } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
