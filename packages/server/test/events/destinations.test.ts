import { expect, layer } from "@effect/vitest"
import { InvalidParameters } from "@hotel/domain"
import { WebhookDispatcher } from "@hotel/persistence/webhooks/WebhookDispatcher"
import { WebhookPolicy } from "@hotel/persistence/webhooks/WebhookPolicy"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { clientOf, expectFailure } from "../utils/client.js"
import { environmentWith } from "../utils/environment.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"
import { receiver } from "./receiver.js"

// Without `HOTEL_WEBHOOKS_ALLOW_PRIVATE`, webhooks go only to public https destinations: saving an endpoint
// refuses the rest (`param` `url`), and sending checks again, so an endpoint that points inside (stored before
// the setting changed, or a name resolving to a private address) gets no request.
// The settings are this process's environment without it (set in the environment itself, a worker's earlier file
// could leave it there for Effect's default provider, which reads the environment once).
const Settings = ConfigProvider.layer(ConfigProvider.fromEnv({ env: environmentWith({ HOTEL_WEBHOOKS_ALLOW_PRIVATE: undefined }) }))

const Dispatcher = WebhookDispatcher.layer.pipe(Layer.provide(WebhookPolicy.layer), Layer.provide(Settings))

layer(TestApiLive.pipe(Layer.provide(Settings)))("webhook destinations", (it) => {
  it.effect("http, loopback, private and link-local URLs are refused with param url", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      for (const url of [
        "http://hooks.example.com/in",
        "https://127.0.0.1/in",
        "https://localhost:8443/in",
        "https://10.1.2.3/in",
        "https://192.168.0.10/in",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/in",
        "https://user:pw@hooks.example.com/in"
      ]) {
        yield* expectFailure(api.client.webhooks.create({ headers: {}, payload: { url, event_types: ["*"] } }), InvalidParameters, "url")
      }
      const [ok, res] = yield* api.client.webhooks.create({ headers: {},
        payload: { url: "https://hooks.example.com/in", event_types: ["*"] },
        responseMode: "decoded-and-response"
      })
      expect(res.status).toBe(201)
      // The same refusal on a change of the URL.
      const patched = api.client.webhooks.update({ params: { id: ok.webhook_endpoint_id }, payload: { url: "https://127.0.0.1/in" }, headers: {} })
      yield* expectFailure(patched, InvalidParameters, "url")
    }))

  it.effect("a stored loopback endpoint is not called when sending: the attempt records the refusal", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const dispatcher = yield* WebhookDispatcher
      const hook = yield* receiver
      const property = yield* api.importProperty()
      const key = yield* api.createKey({ propertyId: property.property_id })
      const [{ id }] = yield* api.sql<{ id: string }>`
        INSERT INTO webhook_endpoints (property_id, url, event_types, secret, created_at, updated_at)
        VALUES (${property.property_id}, ${hook.url}, ${["*"]}::text[], 'whsec_AAAA', now(), now())
        RETURNING id`.pipe(Effect.orDie)
      const client = yield* clientOf(api, { key })
      const [, created] = yield* client.guests.create({ headers: {}, payload: { first_name: "A", last_name: "B" }, responseMode: "decoded-and-response" })
      expect(created.status).toBe(201)
      expect(yield* dispatcher.deliverDue).toBe(1)
      expect(hook.received).toHaveLength(0)
      const attempts = (yield* client.webhooks.deliveries({ params: { id } })).data
      expect(attempts).toHaveLength(1)
      expect(attempts[0]).toMatchObject({ status: "pending", response_status: null })
      expect(attempts[0].error).toMatch(/destination refused/)
    }).pipe(Effect.provide(Dispatcher)))
})
