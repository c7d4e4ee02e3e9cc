import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { makeClient } from "../utils/client.js"
import { serveProcess } from "../utils/processes.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"
import { eventually, realSleep, receiver } from "./receiver.js"

// Delivery by real server processes (`hotel serve`, each running the delivery worker) on the test's database,
// in real time: several processes send each attempt once, and a process killed while sending leaves the
// delivery to another. The children inherit the setting that lets them call the loopback receiver.
process.env["HOTEL_WEBHOOKS_ALLOW_PRIVATE"] = "true"

layer(TestApiLive, { excludeTestServices: true })("webhook delivery across processes", (it) => {
  it.effect("two processes deliver each event exactly once", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const hook = yield* receiver
      const property = yield* api.importProperty()
      const key = yield* api.createKey({ propertyId: property.property_id })
      const [one, two] = yield* Effect.all([serveProcess, serveProcess], { concurrency: "unbounded" })
      const [first, second] = [yield* makeClient(one.baseUrl, key), yield* makeClient(two.baseUrl, key)]
      const [, created] = yield* first.webhooks.create({ headers: {},
        payload: { url: hook.url, event_types: ["guest.created"] },
        responseMode: "decoded-and-response"
      })
      expect(created.status).toBe(201)
      const guests = 20
      yield* Effect.forEach(Array.from({ length: guests }, (_, i) => i), (i) =>
        Effect.map(
          (i % 2 === 0 ? first : second).guests.create({ headers: {},
            payload: { first_name: `G${i}`, last_name: "Twice" },
            responseMode: "decoded-and-response"
          }),
          ([, res]) => expect(res.status).toBe(201)
        ), { concurrency: 4 })
      expect(yield* eventually(Effect.sync(() => hook.received.length >= guests))).toBe(true)
      // Several poll intervals more, in case a second process were to send one again.
      yield* realSleep(2_000)
      const ids = hook.received.map((r) => r.headers["webhook-id"])
      expect(ids).toHaveLength(guests)
      expect(new Set(ids).size).toBe(guests)
    }))

  it.effect("a delivery whose process is killed (-9) while sending is made by another process", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const hook = yield* receiver
      const property = yield* api.importProperty()
      const key = yield* api.createKey({ propertyId: property.property_id })
      const doomed = yield* serveProcess
      const doomedClient = yield* makeClient(doomed.baseUrl, key)
      const created = yield* doomedClient.webhooks.create({ headers: {}, payload: { url: hook.url, event_types: ["guest.created"] } })
      const endpoint = created.webhook_endpoint_id
      hook.script.push("hang")
      const [, guest] = yield* doomedClient.guests.create({ headers: {},
        payload: { first_name: "K", last_name: "Nine" },
        responseMode: "decoded-and-response"
      })
      expect(guest.status).toBe(201)
      expect(yield* eventually(Effect.sync(() => hook.received.length === 1))).toBe(true)
      doomed.kill("SIGKILL")

      const survivor = yield* serveProcess
      expect(yield* eventually(Effect.sync(() => hook.received.length >= 2))).toBe(true)
      expect(hook.received[1].headers["webhook-id"]).toBe(hook.received[0].headers["webhook-id"])
      const attempts = (yield* (yield* makeClient(survivor.baseUrl, key)).webhooks.deliveries({ params: { id: endpoint } })).data
      // The killed attempt was never recorded (its transaction rolled back); the survivor's is attempt 1.
      expect(attempts).toEqual([expect.objectContaining({ attempt: 1, status: "succeeded" })])
    }))
})
