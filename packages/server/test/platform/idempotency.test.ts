import { describe, expect, layer } from "@effect/vitest"
import * as SqlClient from "effect/sql/SqlClient"
import { inTransaction } from "@hotel/persistence/database/Transaction"
import { type BeginOutcome, IdempotencyKeys, type KeyTransaction } from "@hotel/persistence/platform/IdempotencyKeys"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as TestClock from "effect/testing/TestClock"
import * as net from "node:net"
import { RatePlanNotFound } from "@hotel/domain"
import { bodyAs, expectFailure } from "../utils/client.js"
import type { ApiResponse, ErrorBody } from "../utils/http.js"
import { request } from "../utils/http.js"
import { ProbeHttpLive, ProbeRunCreated } from "../utils/ProbeApi.js"
import { secondServer } from "../utils/processes.js"
import { TestSqlLive } from "../utils/TestDatabase.js"
import { TestApi, type TestApiService, makeTestApiLive } from "../utils/TestServer.js"

// Idempotency keys, through the real gateway: real endpoints (`/rate-plans`), plus a probe
// endpoint (`POST /probe/runs`, test-only) whose speed and failures the test controls.

const ProbeTestApiLive = makeTestApiLive(ProbeHttpLive())

const idem = (key: string) => ({ headers: { "Idempotency-Key": key } })
const freshKey = () => `idem-${globalThis.crypto.randomUUID()}`

const planBody = (api: TestApiService, name: string) => ({
  room_type_id: api.property.room_types["DBL"],
  name,
  base_price: "101.00"
})

const countPlans = (api: TestApiService, name: string) =>
  Effect.map(
    api.sql<{ count: number }>`SELECT count(*)::int AS count FROM rate_plans WHERE name = ${name}`,
    (rows) => rows[0]?.count ?? 0
  ).pipe(Effect.orDie)

const countRuns = (api: TestApiService, label: string) =>
  Effect.map(
    api.sql<{ count: number }>`SELECT count(*)::int AS count FROM probe_runs WHERE label = ${label}`,
    (rows) => rows[0]?.count ?? 0
  ).pipe(Effect.orDie)

const countAttempts = (api: TestApiService, label: string) =>
  Effect.map(
    api.sql<{ count: number }>`SELECT count(*)::int AS count FROM probe_attempts WHERE label = ${label}`,
    (rows) => rows[0]?.count ?? 0
  ).pipe(Effect.orDie)

/** A POST over a raw socket, for header bytes `fetch` will not send. */
const rawPost = (api: TestApiService, path: string, body: unknown, idempotencyKey: Buffer) =>
  Effect.callback<{ readonly status: number; readonly text: string }>((resume) => {
    const url = new URL(api.baseUrl)
    const payload = Buffer.from(JSON.stringify(body), "utf8")
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(Buffer.concat([
        Buffer.from(
          `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${api.key}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n` +
            "Idempotency-Key: ",
          "latin1"
        ),
        idempotencyKey,
        Buffer.from("\r\n\r\n", "latin1"),
        payload
      ]))
    })
    const chunks: Array<Buffer> = []
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("end", () => {
      const response = Buffer.concat(chunks).toString("utf8")
      const [head = "", ...rest] = response.split("\r\n\r\n")
      const status = Number(head.split(" ")[1])
      // `Connection: close` responses from Node are chunked or sized; the envelope is the one JSON object.
      const text = rest.join("\r\n\r\n")
      const start = text.indexOf("{")
      const end = text.lastIndexOf("}")
      resume(Effect.succeed({ status, text: start >= 0 && end > start ? text.slice(start, end + 1) : text }))
    })
  })

const errorCode = (res: ApiResponse) => res.json<ErrorBody>().error.code

const isReplay = (res: ApiResponse) => res.headers.get("idempotent-replayed") === "true"

layer(ProbeTestApiLive, { excludeTestServices: true })("Idempotency-Key", (it) => {
  it.effect("a retry after success replays the stored status and body and creates nothing", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = freshKey()
      const first = yield* api.post("/rate-plans", planBody(api, "Replay me"), idem(key))
      expect(first.status, first.text).toBe(201)
      expect(isReplay(first)).toBe(false)
      expect(first.headers.get("cache-control")).toBe("no-store")

      const again = yield* api.post("/rate-plans", planBody(api, "Replay me"), idem(key))
      expect(again.status).toBe(201)
      expect(again.text).toBe(first.text)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"))
      expect(again.headers.get("cache-control")).toBe("no-store")
      // A replay is a new request (its own id, its own token) with the first one's answer.
      expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"))
      expect(yield* countPlans(api, "Replay me")).toBe(1)

      // The same body with its keys in another order is the same request.
      const body = planBody(api, "Replay me")
      const reordered = yield* api.post("/rate-plans", {
        base_price: body.base_price,
        name: body.name,
        room_type_id: body.room_type_id
      }, idem(key))
      expect(reordered.text).toBe(first.text)
      expect(isReplay(reordered)).toBe(true)
      expect(yield* countPlans(api, "Replay me")).toBe(1)
    }))

  it.effect("without the header every request runs", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      yield* api.client.ratePlanWrites.create({ headers: {}, payload: planBody(api, "No key") })
      yield* api.client.ratePlanWrites.create({ headers: {}, payload: planBody(api, "No key") })
      expect(yield* countPlans(api, "No key")).toBe(2)
    }))

  it.effect("the same key with a different request is 409 idempotency_key_reuse", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = freshKey()
      // The typed client sends the key as the contract declares it on every write.
      const [, first] = yield* api.client.ratePlanWrites.create({
        headers: { "idempotency-key": key },
        payload: planBody(api, "Reuse A"),
        responseMode: "decoded-and-response"
      })
      expect(first.status).toBe(201)
      const [, replayed] = yield* api.client.ratePlanWrites.create({
        headers: { "idempotency-key": key },
        payload: planBody(api, "Reuse A"),
        responseMode: "decoded-and-response"
      })
      expect(replayed.headers["idempotent-replayed"]).toBe("true")
      expect(yield* countPlans(api, "Reuse A")).toBe(1)

      const otherBody = yield* api.post("/rate-plans", planBody(api, "Reuse B"), idem(key))
      expect(otherBody.status).toBe(409)
      expect(otherBody.json<ErrorBody>().error).toMatchObject({ type: "conflict", code: "idempotency_key_reuse" })
      expect(otherBody.headers.get("cache-control")).toBe("no-store")

      const otherPath = yield* api.post("/probe/runs", { label: "reuse" }, idem(key))
      expect(otherPath.status).toBe(409)
      expect(errorCode(otherPath)).toBe("idempotency_key_reuse")
      expect(yield* countPlans(api, "Reuse B")).toBe(0)
      expect(yield* countAttempts(api, "reuse")).toBe(0)
    }))

  it.effect("20 concurrent requests with one key run once; the others replay or get idempotency_in_progress", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = freshKey()
      const responses = yield* Effect.all(
        Array.from({ length: 20 }, () => api.post("/rate-plans", planBody(api, "Concurrent"), idem(key))),
        { concurrency: "unbounded" }
      )
      expect(yield* countPlans(api, "Concurrent")).toBe(1)
      const originals = responses.filter((res) => res.status === 201 && !isReplay(res))
      expect(originals).toHaveLength(1)
      const original = originals[0]
      for (const res of responses) {
        if (res === original) continue
        if (res.status === 409) expect(errorCode(res)).toBe("idempotency_in_progress")
        else {
          expect(isReplay(res)).toBe(true)
          expect(res.status).toBe(201)
          expect(res.text).toBe(original?.text)
        }
      }
    }))

  it.effect("a request still running makes the others 409 idempotency_in_progress, and they never run", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = freshKey()
      const body = { label: "slow", delay_ms: 1_500 }
      const responses = yield* Effect.all(
        Array.from({ length: 20 }, () => api.post("/probe/runs", body, idem(key))),
        { concurrency: "unbounded" }
      )
      const original = responses.filter((res) => res.status === 201 && !isReplay(res))
      expect(original).toHaveLength(1)
      const waiting = responses.filter((res) => res.status === 409)
      // All 20 arrive while the first sleeps 1.5 s (on a very busy machine a late one may be a replay).
      expect(waiting.length).toBeGreaterThanOrEqual(15)
      for (const res of waiting) {
        expect(res.json<ErrorBody>().error).toMatchObject({ type: "conflict", code: "idempotency_in_progress" })
      }
      for (const res of responses.filter((res) => isReplay(res))) expect(res.text).toBe(original[0]?.text)
      expect(yield* countAttempts(api, "slow")).toBe(1)
      expect(yield* countRuns(api, "slow")).toBe(1)
      const replay = yield* api.post("/probe/runs", body, idem(key))
      expect(isReplay(replay)).toBe(true)
      expect(replay.text).toBe(original[0]?.text)
    }))

  it.effect("a failed request releases its key: the retry runs again, and its success is what is replayed", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = freshKey()
      const body = { label: "flaky", fail: "conflict_first" }
      const failed = yield* api.post("/probe/runs", body, idem(key))
      expect(failed.status).toBe(409)
      expect(errorCode(failed)).toBe("no_availability")
      expect(isReplay(failed)).toBe(false)

      const retried = yield* api.post("/probe/runs", body, idem(key))
      expect(retried.status, retried.text).toBe(201)
      expect(isReplay(retried)).toBe(false)
      expect(bodyAs(retried, ProbeRunCreated).attempt).toBe(2)

      const replayed = yield* api.post("/probe/runs", body, idem(key))
      expect(replayed.status).toBe(201)
      expect(isReplay(replayed)).toBe(true)
      expect(replayed.text).toBe(retried.text)
      expect(yield* countAttempts(api, "flaky")).toBe(2)
      expect(yield* countRuns(api, "flaky")).toBe(1)
    }))

  it.effect("a 500 releases its key too", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = freshKey()
      const body = { label: "crash", fail: "defect" }
      const first = yield* api.post("/probe/runs", body, idem(key))
      expect(first.status).toBe(500)
      expect(errorCode(first)).toBe("internal_error")
      const second = yield* api.post("/probe/runs", body, idem(key))
      expect(second.status).toBe(500)
      expect(isReplay(second)).toBe(false)
      expect(yield* countAttempts(api, "crash")).toBe(2)
    }))

  it.effect("a validation failure releases its key: the corrected request runs with the same key", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const key = freshKey()
      const invalid = yield* api.post("/rate-plans", { ...planBody(api, "Corrected"), base_price: "abc" }, idem(key))
      expect(invalid.status).toBe(400)
      expect(errorCode(invalid)).toBe("invalid_parameters")
      const fixed = yield* api.post("/rate-plans", planBody(api, "Corrected"), idem(key))
      expect(fixed.status, fixed.text).toBe(201)
      expect(isReplay(fixed)).toBe(false)
      expect(yield* countPlans(api, "Corrected")).toBe(1)
    }))

  it.effect("keys are scoped to the API key: two API keys may use the same Idempotency-Key", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const other = yield* api.createKey()
      const key = freshKey()
      const mine = yield* api.post("/rate-plans", planBody(api, "Scoped A"), idem(key))
      const theirs = yield* api.post("/rate-plans", planBody(api, "Scoped B"), { ...idem(key), key: other })
      expect(mine.status).toBe(201)
      expect(theirs.status).toBe(201)
      expect(isReplay(theirs)).toBe(false)
      expect(theirs.text).not.toBe(mine.text)
      const mineAgain = yield* api.post("/rate-plans", planBody(api, "Scoped A"), idem(key))
      const theirsAgain = yield* api.post("/rate-plans", planBody(api, "Scoped B"), { ...idem(key), key: other })
      expect(mineAgain.text).toBe(mine.text)
      expect(theirsAgain.text).toBe(theirs.text)
      expect(yield* countPlans(api, "Scoped A")).toBe(1)
      expect(yield* countPlans(api, "Scoped B")).toBe(1)
    }))

  it.effect("PATCH and DELETE honour the key: a repeated DELETE replays its 200 instead of a 404", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const { rate_plan_id: id } = yield* api.client.ratePlanWrites.create({ headers: {}, payload: planBody(api, "To delete") })

      const patchKey = freshKey()
      const patched = yield* api.patch(`/rate-plans/${id}`, { name: "Patched once" }, idem(patchKey))
      expect(patched.status, patched.text).toBe(200)
      const patchedAgain = yield* api.patch(`/rate-plans/${id}`, { name: "Patched once" }, idem(patchKey))
      expect(isReplay(patchedAgain)).toBe(true)
      expect(patchedAgain.text).toBe(patched.text)

      const deleteKey = freshKey()
      const deleted = yield* api.delete(`/rate-plans/${id}`, idem(deleteKey))
      expect(deleted.status, deleted.text).toBe(200)
      const deletedAgain = yield* api.delete(`/rate-plans/${id}`, idem(deleteKey))
      expect(deletedAgain.status).toBe(200)
      expect(isReplay(deletedAgain)).toBe(true)
      expect(deletedAgain.text).toBe(deleted.text)
      // Without the key, the plan is gone.
      const gone = yield* expectFailure(api.client.ratePlanWrites.delete({ headers: {}, params: { id } }), RatePlanNotFound)
      expect(gone.message).toBeTruthy()
    }))

  it.effect("an invalid Idempotency-Key is 400 invalid_parameters with param Idempotency-Key, and nothing runs", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const expectInvalidKey = (res: { readonly status: number; readonly text: string }, value: string) => {
        expect(res.status, JSON.stringify(value)).toBe(400)
        expect((JSON.parse(res.text) as ErrorBody).error).toMatchObject({
          type: "invalid_request",
          code: "invalid_parameters",
          param: "Idempotency-Key"
        })
      }
      for (const value of ["", "x".repeat(256)]) {
        expectInvalidKey(yield* api.post("/probe/runs", { label: "invalid-key" }, idem(value)), value)
      }
      // fetch refuses to send these; they go over a raw socket as bytes (a tab, Latin-1 and UTF-8 text).
      const raw = [
        Buffer.from("tab\there", "latin1"),
        Buffer.from("caf\u00e9", "latin1"),
        Buffer.from("\u65e5\u672c", "utf8")
      ]
      for (const value of raw) {
        expectInvalidKey(yield* rawPost(api, "/probe/runs", { label: "invalid-key" }, value), value.toString("hex"))
      }
      expect(yield* countAttempts(api, "invalid-key")).toBe(0)
      const longest = yield* api.post("/probe/runs", { label: "valid-key" }, idem("~".repeat(255)))
      expect(longest.status).toBe(201)
      const spaced = yield* api.post("/probe/runs", { label: "valid-key-2" }, idem("a key with spaces"))
      expect(spaced.status).toBe(201)
    }))

  it.effect("the key is checked after authentication, scope and body", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const noKey = yield* api.post("/probe/runs", { label: "order" }, { ...idem(""), key: null })
      expect(noKey.status).toBe(401)
      const readOnly = yield* api.createKey({ scopes: ["catalog:read"] })
      const forbidden = yield* api.post("/probe/runs", { label: "order" }, { ...idem(""), key: readOnly })
      expect(forbidden.status).toBe(403)
      const badJson = yield* api.request("POST", "/probe/runs", { raw: "{", ...idem("") })
      expect(badJson.status).toBe(400)
      expect(errorCode(badJson)).toBe("invalid_json")
    }))

  it.effect("two API processes on one database: one key runs once across both", () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const other = yield* secondServer
      const sendOther = request(other, api.key)
      const key = freshKey()
      const body = planBody(api, "Two processes")
      const responses = yield* Effect.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0
            ? api.post("/rate-plans", body, idem(key))
            : sendOther("POST", "/rate-plans", { body, ...idem(key) })),
        { concurrency: "unbounded" }
      )
      expect(yield* countPlans(api, "Two processes")).toBe(1)
      const originals = responses.filter((res) => res.status === 201 && !isReplay(res))
      expect(originals).toHaveLength(1)
      for (const res of responses) {
        if (res.status === 409) expect(errorCode(res)).toBe("idempotency_in_progress")
        else expect(res.text).toBe(originals[0]?.text)
      }
      // Stored by one process, replayed by the other.
      const viaOther = yield* sendOther("POST", "/rate-plans", { body, ...idem(key) })
      const viaThis = yield* api.post("/rate-plans", body, idem(key))
      expect(isReplay(viaOther) && isReplay(viaThis)).toBe(true)
      expect(viaOther.text).toBe(originals[0]?.text)
      expect(viaThis.text).toBe(originals[0]?.text)
      expect(yield* countPlans(api, "Two processes")).toBe(1)
    }).pipe(Effect.scoped), { timeout: 120_000 })
})

// The store itself on the TestClock: keys held by open transactions, stored responses, expiry. (The former
// 60-second takeover of an abandoned claim is gone: the key is an advisory lock of the request's transaction,
// which Postgres frees the moment that transaction ends, a crashed process's included.)
const StoreLive = IdempotencyKeys.postgres.pipe(Layer.provideMerge(TestSqlLive))
const apiKeyId = "00000000-0000-4000-8000-0000000000a1"
const request1 = { apiKeyId, key: "k1", fingerprint: "f1" }
const json = (body: string) => Option.some({ status: 201, body, contentType: "application/json" })

const opened = (outcome: BeginOutcome) =>
  outcome._tag === "Open" ? Effect.succeed(outcome.transaction) : Effect.die(new Error(`expected Open, got ${outcome._tag}`))

describe("IdempotencyKeys", () => {
  layer(StoreLive)("postgres, on the TestClock", (it) => {
    it.effect("a key is held while its transaction is open, freed by rollback, replayed once committed", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyKeys
        const first = yield* opened(yield* store.begin(request1))
        expect((yield* store.begin(request1))._tag).toBe("InProgress")
        expect((yield* store.begin({ ...request1, fingerprint: "f2" }))._tag).toBe("InProgress")
        yield* first.rollback
        const second = yield* opened(yield* store.begin(request1))
        yield* second.commit(json("{\"ok\":true}"))
        expect(yield* store.begin(request1)).toEqual({
          _tag: "Replay",
          response: { status: 201, body: "{\"ok\":true}", contentType: "application/json" }
        })
        expect((yield* store.begin({ ...request1, fingerprint: "f2" }))._tag).toBe("Mismatch")
      }))

    it.effect("the operation's change commits with the response, and a rollback undoes both", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyKeys
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE store_probe (label text NOT NULL)`
        const count = (label: string) =>
          Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM store_probe WHERE label = ${label}`, (rows) => rows[0]?.n)
        // A write as the services make it (in the transaction open around it), run as the handler runs.
        const write = (open: KeyTransaction, label: string) =>
          open.within(inTransaction(sql)(sql`INSERT INTO store_probe (label) VALUES (${label})`))
        const undone = yield* opened(yield* store.begin({ apiKeyId, key: "k3", fingerprint: "f" }))
        yield* write(undone, "undone")
        yield* undone.rollback
        expect(yield* count("undone")).toBe(0)
        const kept = yield* opened(yield* store.begin({ apiKeyId, key: "k3", fingerprint: "f" }))
        yield* write(kept, "kept")
        expect(yield* count("kept")).toBe(0)
        yield* kept.commit(json("{}"))
        expect(yield* count("kept")).toBe(1)
        expect((yield* store.begin({ apiKeyId, key: "k3", fingerprint: "f" }))._tag).toBe("Replay")
      }))

    it.effect("stored responses expire after 24 hours and are purged", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyKeys
        const request = { apiKeyId, key: "k2", fingerprint: "f1" }
        const open = yield* opened(yield* store.begin(request))
        yield* open.commit(Option.some({ status: 200, body: "{}", contentType: "application/json" }))
        yield* TestClock.adjust("23 hours")
        expect((yield* store.begin(request))._tag).toBe("Replay")
        expect(yield* store.purgeExpired).toBe(0)
        yield* TestClock.adjust("1 hour")
        // Expired: the key is free again, even for another request.
        expect(yield* store.purgeExpired).toBeGreaterThanOrEqual(1)
        const again = yield* opened(yield* store.begin({ ...request, fingerprint: "other" }))
        yield* again.rollback
      }))
  })
})
