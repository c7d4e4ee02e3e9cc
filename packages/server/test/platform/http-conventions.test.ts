import { expect, layer } from "@effect/vitest"
import { PreconditionFailed, RatePlanNotFound } from "@hotel/domain"
import { Reservation } from "@hotel/api/booking/Api"
import { FolioView } from "@hotel/api/folios/Api"
import { RatePlan } from "@hotel/api/rates/Api"
import { WebhookEndpoint } from "@hotel/api/webhooks/Api"
import { entityTagOf } from "@hotel/persistence/events/EntityTag"
import * as Schema from "effect/Schema"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { hold, holdBody, newGuest, postCancel } from "../utils/booking.js"
import { bodyAs, expectFailure } from "../utils/client.js"
import { attempt } from "../utils/connections.js"
import type { ApiResponse } from "../utils/http.js"
import { createPlan, expectError, expectStatus } from "../utils/rateManagement.js"
import { TestApi, TestApiLive, type TestApiService } from "../utils/TestServer.js"

// HTTP conventions beyond the contract (ETag and If-None-Match, If-Match, the 401 challenge, Retry-After of a
// key in use, the client's request id), through the real server. CORS is in `cors.test.ts`.

const etagOf = (res: ApiResponse) => {
  const tag = res.headers.get("etag")
  expect(tag, `no ETag on ${res.status} ${res.text}`).toMatch(/^"[A-Za-z0-9_-]+"$/)
  return tag ?? ""
}

/** GET that must be 200; its body and ETag. */
const read = (api: TestApiService, path: string) =>
  Effect.map(api.get(path), (res) => {
    expectStatus(res, 200)
    return { body: res.text, etag: etagOf(res) }
  })

const expectPreconditionFailed = (res: ApiResponse) => expectError(res, 412, "conflict", "precondition_failed")

const newInterval = (api: TestApiService, planId: string) =>
  Effect.map(
    api.client.intervals.create({ headers: {},
      params: { id: planId },
      payload: { name: "Summer", start_date: "2031-06-01", end_date: "2031-07-01" }
    }),
    (created) => created.interval_id
  )

const newPromoCode = (api: TestApiService, planId: string) =>
  Effect.map(
    api.client.promoCodes.create({ headers: {}, params: { id: planId }, payload: { code: `C${Date.now()}` } }),
    (created) => created.promo_code_id
  )

const newWebhookEndpoint = (api: TestApiService) =>
  Effect.map(
    api.client.webhooks.create({ headers: {},
      payload: { url: "https://hooks.example.com/in", event_types: ["guest.created"] }
    }),
    (created) => created.webhook_endpoint_id
  )

layer(TestApiLive, { excludeTestServices: true })("HTTP conventions", (it) => {
  it.effect("a read written once is exactly its schema's encoded form, and its ETag is the tag of that representation", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const guestId = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guestId))
      /** The body as sent is what the schema encodes (no key more or less), tagged from that representation. */
      const exactRead = <S extends Schema.Codec<unknown, unknown>>(path: string, schema: S) =>
        Effect.gen(function*() {
          const res = yield* api.get(path)
          expectStatus(res, 200)
          const sent: unknown = JSON.parse(res.text)
          const decoded = yield* Schema.decodeUnknownEffect(schema)(sent)
          expect(yield* Schema.encodeEffect(schema)(decoded), path).toEqual(sent)
          expect(etagOf(res), path).toBe(entityTagOf(sent))
        })
      yield* exactRead(`/reservations/${held.reservation_id}`, Reservation)
      yield* exactRead(`/folios/${held.folio_id}`, FolioView)
      yield* exactRead(`/webhook-endpoints/${yield* newWebhookEndpoint(api)}`, WebhookEndpoint)
    }))

  it.effect("every tagged read carries a strong ETag; If-None-Match with it is 304, no body, same ETag", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const planId = yield* createPlan(api)
      const guestId = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guestId))
      const paths = [
        "/property",
        "/room-types",
        "/services",
        "/rate-plans",
        `/rate-plans/${planId}`,
        `/intervals/${yield* newInterval(api, planId)}`,
        `/promo-codes/${yield* newPromoCode(api, planId)}`,
        `/guests/${guestId}`,
        `/reservations/${held.reservation_id}`,
        `/folios/${held.folio_id}`,
        `/webhook-endpoints/${yield* newWebhookEndpoint(api)}`
      ]
      for (const path of paths) {
        const first = yield* api.get(path)
        expectStatus(first, 200)
        const tag = etagOf(first)
        expect((yield* read(api, path)).etag, path).toBe(tag)
        const cached = yield* api.get(path, { headers: { "if-none-match": tag } })
        expect(cached.status, path).toBe(304)
        expect(cached.text, path).toBe("")
        expect(cached.headers.get("etag"), path).toBe(tag)
        expect(cached.headers.get("cache-control"), path).toBe(first.headers.get("cache-control"))
        // A list of tags, a weak form of the tag and `*` match too; another tag does not.
        expect((yield* api.get(path, { headers: { "if-none-match": `"other", W/${tag}` } })).status, path).toBe(304)
        expect((yield* api.get(path, { headers: { "if-none-match": "*" } })).status, path).toBe(304)
        const stale = yield* api.get(path, { headers: { "if-none-match": "\"other\"" } })
        expect(stale.status, path).toBe(200)
        expect(stale.text, path).toBe(first.text)
      }
    }))

  it.effect("a change changes the tag: the old tag is 200 with the new body, the new one 304", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const planId = yield* createPlan(api)
      const before = yield* read(api, `/rate-plans/${planId}`)
      const listBefore = yield* read(api, "/rate-plans")
      yield* api.client.ratePlanWrites.update({ headers: {}, params: { id: planId }, payload: { name: "Renamed" } })
      const after = yield* api.get(`/rate-plans/${planId}`, { headers: { "if-none-match": before.etag } })
      expect(after.status).toBe(200)
      expect(bodyAs(after, RatePlan).name).toBe("Renamed")
      const tag = etagOf(after)
      expect(tag).not.toBe(before.etag)
      expect((yield* api.get(`/rate-plans/${planId}`, { headers: { "if-none-match": tag } })).status).toBe(304)
      const list = yield* api.get("/rate-plans", { headers: { "if-none-match": listBefore.etag } })
      expect(list.status).toBe(200)
      expect(etagOf(list)).not.toBe(listBefore.etag)
    }))

  it.effect("If-Match on a rate plan: a stale tag is 412 and changes nothing; the current tag succeeds", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const planId = yield* createPlan(api)
      const path = `/rate-plans/${planId}`
      const original = yield* read(api, path)
      const update = (name: string, headers: { readonly "if-match"?: string } = {}) =>
        api.client.ratePlanWrites.update({ headers, params: { id: planId }, payload: { name } })
      yield* update("First", { "if-match": original.etag })
      const changed = yield* read(api, path)
      expectPreconditionFailed(yield* api.patch(path, { name: "Second" }, { headers: { "if-match": original.etag } }))
      expectPreconditionFailed(yield* api.delete(path, { headers: { "if-match": original.etag } }))
      expectPreconditionFailed(yield* api.patch(path, { name: "Weak" }, { headers: { "if-match": `W/${changed.etag}` } }))
      expect((yield* read(api, path)).body).toBe(changed.body)
      // Validation comes first; without If-Match the write runs as before; `*` matches any current tag.
      expectError(
        yield* api.patch(path, { name: "" }, { headers: { "if-match": original.etag } }),
        400,
        "invalid_request",
        "invalid_parameters",
        "name"
      )
      yield* update("Unconditional")
      yield* update("Any", { "if-match": "*" })
      const current = (yield* read(api, path)).etag
      yield* api.client.ratePlanWrites.delete({ headers: { "if-match": current }, params: { id: planId } })
      yield* expectFailure(api.client.ratePlanReads.get({ params: { id: planId } }), RatePlanNotFound)
    }))

  it.effect("If-Match on intervals, promo codes and webhook endpoints: 412 when stale, success when current", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const planId = yield* createPlan(api)
      const interval = yield* newInterval(api, planId)
      const promoCode = yield* newPromoCode(api, planId)
      const webhookEndpoint = yield* newWebhookEndpoint(api)
      // Each resource's path, its patch (raw, for the refused stale writes) and its client calls with a tag.
      const cases: ReadonlyArray<{
        readonly path: string
        readonly patch: Record<string, unknown>
        readonly update: (etag: string) => Effect.Effect<unknown, unknown>
        readonly remove: (etag: string) => Effect.Effect<unknown, unknown>
      }> = [
        {
          path: `/intervals/${interval}`,
          patch: { name: "Renamed" },
          update: (etag) =>
            api.client.intervals.update({ headers: { "if-match": etag }, params: { id: interval }, payload: { name: "Renamed" } }),
          remove: (etag) => api.client.intervals.delete({ headers: { "if-match": etag }, params: { id: interval } })
        },
        {
          path: `/promo-codes/${promoCode}`,
          patch: { max_redemptions: 5 },
          update: (etag) =>
            api.client.promoCodes.update({ headers: { "if-match": etag }, params: { id: promoCode }, payload: { max_redemptions: 5 } }),
          remove: (etag) => api.client.promoCodes.delete({ headers: { "if-match": etag }, params: { id: promoCode } })
        },
        {
          path: `/webhook-endpoints/${webhookEndpoint}`,
          patch: { description: "changed" },
          update: (etag) =>
            api.client.webhooks.update({
              headers: { "if-match": etag },
              params: { id: webhookEndpoint },
              payload: { description: "changed" }
            }),
          remove: (etag) => api.client.webhooks.delete({ headers: { "if-match": etag }, params: { id: webhookEndpoint } })
        }
      ]
      for (const { patch, path, remove, update } of cases) {
        const original = yield* read(api, path)
        yield* update(original.etag)
        const changed = yield* read(api, path)
        expect(changed.etag, path).not.toBe(original.etag)
        expectPreconditionFailed(yield* api.patch(path, patch, { headers: { "if-match": original.etag } }))
        expectPreconditionFailed(yield* api.delete(path, { headers: { "if-match": original.etag } }))
        expect((yield* read(api, path)).body, path).toBe(changed.body)
        yield* remove(changed.etag)
        expect((yield* api.get(path)).status, path).toBe(404)
      }
    }))

  it.effect("cancel with a stale reservation tag is 412 and cancels nothing; with the current tag it cancels", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const held = yield* hold(api, holdBody(api, yield* newGuest(api)))
      const path = `/reservations/${held.reservation_id}`
      const current = yield* read(api, path)
      expectPreconditionFailed(yield* postCancel(api, held.reservation_id, {}, { headers: { "if-match": "\"stale\"" } }))
      const after = yield* read(api, path)
      expect(after.body).toBe(current.body)
      expect(after.etag).toBe(current.etag)
      const cancelled = yield* api.client.reservationActions.cancel({
        headers: { "if-match": current.etag },
        params: { id: held.reservation_id },
        payload: {}
      })
      expect(cancelled.status).toBe("cancelled")
      expect((yield* read(api, path)).etag).not.toBe(current.etag)
    }))

  it.effect("two concurrent PATCHes with the same If-Match: exactly one 200, the other 412", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      for (let round = 0; round < 5; round++) {
        const planId = yield* createPlan(api)
        const path = `/rate-plans/${planId}`
        const { etag } = yield* read(api, path)
        const [a, b] = yield* Effect.all([
          api.patch(path, { name: "Writer A" }, { headers: { "if-match": etag } }),
          api.patch(path, { name: "Writer B" }, { headers: { "if-match": etag } })
        ], { concurrency: "unbounded" })
        const statuses = [a.status, b.status].sort()
        expect(statuses, `${a.text} ${b.text}`).toEqual([200, 412])
        const winner = a.status === 200 ? "Writer A" : "Writer B"
        expect(JSON.parse((yield* read(api, path)).body).name).toBe(winner)
      }
    }))

  it.effect("the typed client derived from HotelApi sends If-Match and decodes 412 as PreconditionFailed", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const client = api.client
      const planId = yield* createPlan(api)
      const { etag } = yield* read(api, `/rate-plans/${planId}`)
      const updated = yield* client.ratePlanWrites.update({
        params: { id: planId },
        payload: { name: "Typed" },
        headers: { "if-match": etag }
      })
      expect(updated).toEqual({ rate_plan_id: planId, updated: true })
      const refused = yield* client.ratePlanWrites.update({
        params: { id: planId },
        payload: { name: "Stale" },
        headers: { "if-match": etag }
      }).pipe(Effect.flip)
      expect(refused).toBeInstanceOf(PreconditionFailed)
    }))

  it.effect("OpenAPI describes ETag, If-None-Match and 304 on tagged reads, If-Match and 412 on conditional writes", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      type Operation = {
        // Shared parameters (Idempotency-Key) are `$ref`s to components and have no name of their own here.
        readonly parameters?: ReadonlyArray<{ readonly name?: string; readonly in?: string; readonly $ref?: string }>
        readonly responses: Record<string, { readonly headers?: Record<string, unknown> }>
      }
      const spec = (yield* api.get("/openapi.json", { key: null })).json<{ paths: Record<string, Record<string, Operation>> }>()
      const read = spec.paths["/rate-plans/{id}"]?.["get"]
      expect(read?.parameters?.map((p) => p.name)).toContain("If-None-Match")
      expect(read?.responses["200"]?.headers).toHaveProperty("ETag")
      expect(read?.responses).toHaveProperty("304")
      for (const [path, method] of [["/rate-plans/{id}", "patch"], ["/intervals/{id}", "delete"], ["/reservations/{id}/cancel", "post"]]) {
        const write = spec.paths[path]?.[method]
        expect(write?.parameters?.map((p) => p.name?.toLowerCase()), `${method} ${path}`).toContain("if-match")
        expect(write?.responses, `${method} ${path}`).toHaveProperty("412")
      }
    }))

  it.effect("401 carries WWW-Authenticate: Bearer", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const missing = yield* api.get("/me", { key: null })
      expectError(missing, 401, "authentication", "missing_api_key")
      expect(missing.headers.get("www-authenticate")).toBe("Bearer")
      const invalid = yield* api.get("/me", { key: "hk_nope" })
      expect(invalid.status).toBe(401)
      expect(invalid.headers.get("www-authenticate")).toBe("Bearer")
      expect((yield* api.get("/me")).headers.get("www-authenticate")).toBeNull()
    }))

  it.effect("a kept-alive connection is kept 65 s and says so, longer than a balancer's 60 s idle timeout", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const answer = yield* attempt(api.baseUrl, { method: "GET", path: "/health/live", headers: {} })
      expect(answer).toMatchObject({ _tag: "Answered", status: 200, headers: { connection: "keep-alive", "keep-alive": "timeout=65" } })
    }))

  it.effect("409 idempotency_in_progress carries Retry-After: 1", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const options = { headers: { "idempotency-key": `k-${globalThis.crypto.randomUUID()}` } }
      const body = { room_type_id: api.property.room_types["DBL"], name: "Held back", base_price: "90.00" }
      // Hold the property's row, which every rate plan write locks first: the request that claims the key
      // waits on it, so the other request with the key finds it in progress.
      const [first, second] = yield* api.sql.withTransaction(Effect.gen(function*() {
        yield* api.sql`SELECT id FROM properties WHERE id = ${api.property.property_id} FOR UPDATE`
        const a = yield* Effect.forkChild(api.post("/rate-plans", body, options))
        const b = yield* Effect.forkChild(api.post("/rate-plans", body, options))
        const early = yield* Effect.raceFirst(Fiber.join(a), Fiber.join(b))
        return [early, a, b] as const
      })).pipe(Effect.flatMap(([early, a, b]) =>
        Effect.map(Effect.all([Fiber.join(a), Fiber.join(b)]), (both) => [early, both] as const)
      ), Effect.orDie)
      expectError(first, 409, "conflict", "idempotency_in_progress")
      expect(first.headers.get("retry-after")).toBe("1")
      expect(second.map((res) => res.status).sort()).toEqual([201, 409])
    }))

  it.effect("the client's X-Request-Id is not used as the request id", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const client = yield* api.clientFor(api.key, { headers: { "x-request-id": "client-chosen-id" } })
      const [me, res] = yield* client.me.me({ responseMode: "decoded-and-response" })
      expect(res.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{32}$/)
      expect(me.request_id).toBe(res.headers["x-request-id"])
    }))
})
