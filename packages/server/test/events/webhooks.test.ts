import { expect, layer } from "@effect/vitest"
import { Events, InsufficientScope, InvalidParameters, WebhookEndpointNotFound } from "@hotel/domain"
import { type NewWebhookEndpoint, WebhookEndpoint } from "@hotel/api/webhooks/Api"
import { sign } from "@hotel/persistence/webhooks/Signature"
import { WebhookDispatcher } from "@hotel/persistence/webhooks/WebhookDispatcher"
import { WebhookPolicy } from "@hotel/persistence/webhooks/WebhookPolicy"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/testing/TestClock"
import { createHmac } from "node:crypto"
import { bodyAs, clientOf, expectFailure } from "../utils/client.js"
import { expectError, expectInvalid, missingId } from "../utils/rateManagement.js"
import { environmentWith } from "../utils/environment.js"
import { TestApi, type TestApiService, TestApiLive } from "../utils/TestServer.js"
import { allEvents } from "./feed.js"
import { eventually, receiver } from "./receiver.js"

// Webhook endpoints and delivery with a real receiver on loopback, which this file's server
// allows (`HOTEL_WEBHOOKS_ALLOW_PRIVATE=true`). The server runs on the TestClock; the test drives the
// dispatcher (what the worker of every process runs) and moves the clock through the retry schedule.
const Settings = ConfigProvider.layer(ConfigProvider.fromEnv({ env: environmentWith({ HOTEL_WEBHOOKS_ALLOW_PRIVATE: "true" }) }))

const T0 = Date.parse("2031-02-01T12:00:00Z")

const Dispatcher = WebhookDispatcher.layer.pipe(Layer.provide(WebhookPolicy.allowingPrivate))

/** The Standard Webhooks signature, computed here from the specification's formula (not the server's code). */
const expectedSignature = (secret: string, id: string, timestamp: string, body: string) =>
  `v1,${createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64")).update(`${id}.${timestamp}.${body}`).digest("base64")}`

const ownProperty = (api: TestApiService) =>
  Effect.gen(function*() {
    const property = yield* api.importProperty()
    const key = yield* api.createKey({ propertyId: property.property_id })
    return { property, key }
  })

const createEndpoint = (api: TestApiService, key: string, payload: typeof NewWebhookEndpoint.Type) =>
  Effect.flatMap(clientOf(api, { key }), (client) => client.webhooks.create({ headers: {}, payload, responseMode: "decoded-and-response" })).pipe(
    Effect.map(([created, res]) => {
      expect(res.status).toBe(201)
      return created
    })
  )

const newGuest = (api: TestApiService, key: string) =>
  Effect.flatMap(
    clientOf(api, { key }),
    (client) => client.guests.create({ headers: {}, payload: { first_name: "Ada", last_name: "Lovelace" }, responseMode: "decoded-and-response" })
  ).pipe(Effect.map(([created, res]) => {
    expect(res.status).toBe(201)
    return created.guest_id
  }))

const deliveries = (api: TestApiService, key: string, id: string) =>
  Effect.flatMap(clientOf(api, { key }), (client) => client.webhooks.deliveries({ params: { id }, responseMode: "decoded-and-response" })).pipe(
    Effect.map(([attempts, res]) => {
      expect(res.status).toBe(200)
      return attempts.data
    })
  )

/** The parts of the OpenAPI document read here (the document itself is not an endpoint of the contract). */
const WebhooksSection = Schema.Struct({
  openapi: Schema.String,
  components: Schema.Struct({ schemas: Schema.Record(Schema.String, Schema.Unknown) }),
  webhooks: Schema.Record(
    Schema.String,
    Schema.Struct({
      post: Schema.Struct({
        requestBody: Schema.Struct({
          content: Schema.Record(Schema.String, Schema.Struct({ schema: Schema.Unknown }))
        })
      })
    })
  )
})

layer(TestApiLive.pipe(Layer.provide(Settings)))("webhooks", (it) => {
  it("signing reproduces the Standard Webhooks published example", () => {
    expect(sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, "{\"test\": 2432232314}"))
      .toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
  })

  it.effect("the OpenAPI description has a webhooks section: the envelope and each type's data", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const spec = bodyAs(yield* api.get("/openapi.json", { key: null }), WebhooksSection)
      expect(spec.openapi).toMatch(/^3\.1/)
      expect(Object.keys(spec.webhooks).sort()).toEqual([...Events.eventTypes].sort())
      // Each type's body is its event component (the one the feed's items are a union of).
      const body = (type: string) => {
        const ref = JSON.stringify(spec.webhooks[type]?.post.requestBody.content["application/json"]?.schema)
        const name = /#\/components\/schemas\/(\w+)/.exec(ref)?.[1] ?? ""
        return JSON.stringify(spec.components.schemas[name])
      }
      const cancelled = body("reservation.cancelled")
      for (const field of ["sequence", "created_at", "refund_due_minor", "confirmation_code"]) expect(cancelled).toContain(field)
      const changed = body("reservation.changed")
      for (const field of ["refund_due_minor", "amount_due", "confirmation_code"]) expect(changed).toContain(field)
      expect(body("availability.changed")).toContain("room_type_id")
    }))

  it.effect("a matching event is POSTed signed, with the feed's envelope; other types and other properties are not", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const dispatcher = yield* WebhookDispatcher
      const hook = yield* receiver
      yield* TestClock.setTime(T0)
      const { key } = yield* ownProperty(api)
      const created = yield* createEndpoint(api, key, { url: hook.url, event_types: ["guest.created"], description: "CRM" })
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
      expect(Buffer.from(created.secret.slice(6), "base64")).toHaveLength(32)
      // Raw: the secret must not be anywhere in the answer's text.
      const shown = yield* api.get(`/webhook-endpoints/${created.webhook_endpoint_id}`, { key })
      expect(bodyAs(shown, WebhookEndpoint)).toEqual({
        id: created.webhook_endpoint_id,
        url: hook.url,
        event_types: ["guest.created"],
        description: "CRM",
        is_active: true,
        created_at: new Date(T0).toISOString()
      })
      expect(shown.text).not.toContain(created.secret.slice(6))

      yield* newGuest(api, key)
      yield* newGuest(api, api.key) // another property's change
      yield* api.post("/rate-plans", {}, { key }) // a failed (malformed) request: no event
      expect(yield* dispatcher.deliverDue).toBe(1)
      expect(hook.received).toHaveLength(1)
      const [request] = hook.received
      const [event] = yield* allEvents(api, key, { types: "guest.created" })
      expect(JSON.parse(request.body)).toEqual(event)
      expect(request.headers["webhook-id"]).toBe(event.id)
      expect(request.headers["webhook-timestamp"]).toBe(String(T0 / 1000))
      expect(request.headers["webhook-signature"]).toBe(
        expectedSignature(created.secret, event.id, String(T0 / 1000), request.body)
      )
      expect(request.headers["content-type"]).toBe("application/json")
      expect(yield* deliveries(api, key, created.webhook_endpoint_id)).toEqual([{
        event_id: event.id,
        type: "guest.created",
        attempt: 1,
        status: "succeeded",
        response_status: 200,
        error: null,
        attempted_at: new Date(T0).toISOString(),
        next_attempt_at: null
      }])
      expect(yield* dispatcher.deliverDue).toBe(0)
    }).pipe(Effect.provide(Dispatcher)))

  it.effect("a 500 is retried after 5 s, then 30 s; success ends it; each attempt is listed newest first", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const dispatcher = yield* WebhookDispatcher
      const hook = yield* receiver
      const start = T0 + 3_600_000
      yield* TestClock.setTime(start)
      const { key } = yield* ownProperty(api)
      const endpoint = (yield* createEndpoint(api, key, { url: hook.url, event_types: ["*"] })).webhook_endpoint_id
      hook.script.push(500, 503)
      yield* newGuest(api, key)
      expect(yield* dispatcher.deliverDue).toBe(1)
      expect(yield* dispatcher.deliverDue).toBe(0)
      yield* TestClock.adjust("4 seconds")
      expect(yield* dispatcher.deliverDue).toBe(0)
      yield* TestClock.adjust("1 second")
      expect(yield* dispatcher.deliverDue).toBe(1)
      yield* TestClock.adjust("29 seconds")
      expect(yield* dispatcher.deliverDue).toBe(0)
      yield* TestClock.adjust("1 second")
      expect(yield* dispatcher.deliverDue).toBe(1)
      expect(hook.received).toHaveLength(3)
      expect(new Set(hook.received.map((r) => r.headers["webhook-id"])).size).toBe(1)
      expect(hook.received.map((r) => r.headers["webhook-timestamp"])).toEqual(
        [0, 5, 35].map((s) => String(start / 1000 + s))
      )
      const attempts = yield* deliveries(api, key, endpoint)
      expect(attempts.map((a) => [a.attempt, a.status, a.response_status, a.next_attempt_at])).toEqual([
        [3, "succeeded", 200, null],
        [2, "pending", 503, new Date(start + 35_000).toISOString()],
        [1, "pending", 500, new Date(start + 5_000).toISOString()]
      ])
      expect(attempts[1].error).toBe("answered 503")

      // Redeliver sends the same event again, now.
      const eventId = attempts[0].event_id
      const client = yield* clientOf(api, { key })
      const redeliver = (event_id: string) => client.webhooks.redeliver({ headers: {}, params: { id: endpoint }, payload: { event_id } })
      expect(yield* redeliver(eventId)).toEqual({ event_id: eventId, queued: true })
      expect(yield* dispatcher.deliverDue).toBe(1)
      expect(hook.received[3].headers["webhook-id"]).toBe(eventId)
      yield* expectFailure(redeliver("evt_x"), InvalidParameters, "event_id")
      // Malformed text, which the typed client would not send.
      expectInvalid(yield* api.post(`/webhook-endpoints/${endpoint}/redeliver`, { event_id: "evt_\u0000" }, { key }), "event_id")
    }).pipe(Effect.provide(Dispatcher)))

  it.effect("an endpoint that hangs holds one worker of a process; the other endpoints' deliveries go on", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const dispatcher = yield* WebhookDispatcher
      const [slow, fast] = yield* Effect.all([receiver, receiver])
      yield* TestClock.setTime(T0 + 5_400_000)
      const { key } = yield* ownProperty(api)
      const hanging = (yield* createEndpoint(api, key, { url: slow.url, event_types: ["guest.created"] })).webhook_endpoint_id
      yield* createEndpoint(api, key, { url: fast.url, event_types: ["guest.created"] })
      slow.script.push("hang", "hang", "hang")
      for (let i = 0; i < 3; i++) yield* newGuest(api, key)
      // three workers at once, as a server process runs them
      const workers = yield* Effect.forkChild(Effect.all([1, 2, 3].map(() => dispatcher.deliverDue), { concurrency: "unbounded" }))
      // the hung request may reach its receiver after the fast ones (the workers race)
      expect(yield* eventually(Effect.sync(() => fast.received.length === 3 && slow.received.length === 1))).toBe(true)
      expect(slow.received).toHaveLength(1)
      // the endpoint goes (its other deliveries with it); the hung request ends with its receiver
      const client = yield* clientOf(api, { key })
      expect((yield* client.webhooks.delete({ params: { id: hanging }, headers: {} })).deleted).toBe(true)
      slow.close()
      yield* Fiber.await(workers)
      expect(slow.received).toHaveLength(1)
    }).pipe(Effect.provide(Dispatcher)))

  it.effect("a receiver that never succeeds is given up after 24 hours: the last attempt is failed", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const dispatcher = yield* WebhookDispatcher
      const hook = yield* receiver
      yield* TestClock.setTime(T0 + 7_200_000)
      const { key } = yield* ownProperty(api)
      const endpoint = (yield* createEndpoint(api, key, { url: hook.url, event_types: ["guest.created"] })).webhook_endpoint_id
      hook.script.push(...Array.from({ length: 40 }, () => 500))
      yield* newGuest(api, key)
      let sent = 0
      for (let i = 0; i < 30; i++) {
        sent += yield* dispatcher.deliverDue
        yield* TestClock.adjust("1 hours")
      }
      const attempts = yield* deliveries(api, key, endpoint)
      expect(attempts[0].status).toBe("failed")
      expect(attempts[0].next_attempt_at).toBeNull()
      expect(attempts.slice(1).every((a) => a.status === "pending")).toBe(true)
      expect(attempts).toHaveLength(sent)
      // 5 s, 30 s, 2 min, 10 min, 1 h, then hourly until 24 h after the first attempt.
      expect(sent).toBeGreaterThanOrEqual(24)
      expect(sent).toBeLessThanOrEqual(30)
    }).pipe(Effect.provide(Dispatcher)))

  it.effect("endpoint CRUD: list, patch, delete; 404 webhook_endpoint_not_found; scopes; validation params", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { key, property } = yield* ownProperty(api)
      const url = "https://hooks.example.com/in"
      const client = yield* clientOf(api, { key })
      const { webhook_endpoint_id: id } = yield* createEndpoint(api, key, { url, event_types: ["reservation.held"] })
      const listed = yield* client.webhooks.list()
      expect(listed.data.map((e) => e.id)).toEqual([id])
      const patched = yield* client.webhooks.update({ params: { id }, payload: { is_active: false, event_types: ["*"] }, headers: {} })
      expect(patched).toEqual({ webhook_endpoint_id: id, updated: true })
      expect(yield* client.webhooks.get({ params: { id } })).toMatchObject({
        url,
        is_active: false,
        event_types: ["*"],
        description: null
      })
      expect(yield* client.webhooks.delete({ params: { id }, headers: {} })).toEqual({ webhook_endpoint_id: id, deleted: true })
      const missing = <A, E, R>(call: Effect.Effect<A, E, R>) => expectFailure(call, WebhookEndpointNotFound)
      yield* missing(client.webhooks.get({ params: { id } }))
      yield* missing(client.webhooks.update({ params: { id }, payload: { is_active: true }, headers: {} }))
      yield* missing(client.webhooks.delete({ params: { id }, headers: {} }))
      yield* missing(client.webhooks.deliveries({ params: { id: missingId } }))
      yield* missing(client.webhooks.redeliver({ headers: {}, params: { id: missingId }, payload: { event_id: "evt_x" } }))
      // A malformed id (which the typed client would not send) is the same 404 on the wire.
      expectError(yield* api.get("/webhook-endpoints/not-an-id", { key }), 404, "not_found", "webhook_endpoint_not_found")
      // Another property's endpoint is a missing one.
      const theirs = (yield* createEndpoint(api, key, { url, event_types: ["*"] })).webhook_endpoint_id
      yield* missing(api.client.webhooks.get({ params: { id: theirs } }))

      const reader = yield* api.clientFor(yield* api.createKey({ propertyId: property.property_id, scopes: ["webhooks:read"] }))
      const none = yield* api.clientFor(yield* api.createKey({ propertyId: property.property_id, scopes: ["events:read"] }))
      yield* expectFailure(reader.webhooks.create({ headers: {}, payload: { url, event_types: ["*"] } }), InsufficientScope)
      yield* expectFailure(none.webhooks.list(), InsufficientScope)
      const [, readerList] = yield* reader.webhooks.list({ responseMode: "decoded-and-response" })
      expect(readerList.status).toBe(200)

      // URLs the service refuses; then bodies the typed client would not send.
      yield* expectFailure(client.webhooks.create({ headers: {}, payload: { url: "not a url", event_types: ["*"] } }), InvalidParameters, "url")
      yield* expectFailure(
        client.webhooks.create({ headers: {}, payload: { url: "ftp://example.com/x", event_types: ["*"] } }),
        InvalidParameters,
        "url"
      )
      expectInvalid(yield* api.post("/webhook-endpoints", { event_types: ["*"] }, { key }), "url")
      expectInvalid(yield* api.post("/webhook-endpoints", { url, event_types: [] }, { key }), "event_types")
      expectInvalid(yield* api.post("/webhook-endpoints", { url, event_types: Array(101).fill("*") }, { key }), "event_types")
      // a type listed twice is kept once
      const twice = yield* createEndpoint(api, key, { url, event_types: ["guest.created", "*", "guest.created", "*"] })
      expect(yield* client.webhooks.get({ params: { id: twice.webhook_endpoint_id } })).toMatchObject({
        event_types: ["guest.created", "*"]
      })
      expectInvalid(yield* api.post("/webhook-endpoints", { url }, { key }), "event_types")
      expectInvalid(yield* api.post("/webhook-endpoints", { url, event_types: ["guest.created", "guest.deleted"] }, { key }), "event_types[1]")
    }))
})
