import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import { request as httpRequest } from "node:http"
import { hold, holdBody, newGuest } from "../utils/booking.js"
import { missingId } from "../utils/rateManagement.js"
import { TestApi, TestApiLive } from "../utils/TestServer.js"

// Property-based: for EVERY operation the API publishes in /openapi.json, malformed requests (wrong types,
// NUL, huge strings, deep JSON, bad dates, missing fields, bad path ids, dot segments, bad query values) are
// never answered 5xx, and every 4xx carries the error envelope `{ error: { type, code, message, param?,
// request_id } }`. Requests go over raw HTTP (node:http), so dot segments and odd bytes reach the server as sent.

const samplesPerOperation = 20

interface Operation {
  readonly method: string
  readonly path: string
  readonly pathParams: ReadonlyArray<string>
  readonly queryParams: ReadonlyArray<string>
  readonly bodyFields: ReadonlyArray<string>
}

interface OpenApi {
  readonly paths: Record<string, Record<string, {
    readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string }>
    readonly requestBody?: { readonly content?: Record<string, { readonly schema?: unknown }> }
  }>>
  readonly components?: { readonly schemas?: Record<string, unknown> }
}

/** The property names of a body schema, through `$ref`s, unions and intersections. */
const fieldsOf = (spec: OpenApi, schema: unknown, seen: Set<unknown> = new Set()): ReadonlyArray<string> => {
  if (schema === null || typeof schema !== "object" || seen.has(schema)) return []
  seen.add(schema)
  const s = schema as Record<string, unknown>
  if (typeof s.$ref === "string") {
    const name = s.$ref.split("/").pop() ?? ""
    return fieldsOf(spec, spec.components?.schemas?.[name], seen)
  }
  const own = s.properties !== undefined && typeof s.properties === "object" ? Object.keys(s.properties as object) : []
  const parts = ["anyOf", "oneOf", "allOf"].flatMap((k) => (Array.isArray(s[k]) ? (s[k] as Array<unknown>) : []))
  return [...new Set([...own, ...parts.flatMap((part) => fieldsOf(spec, part, seen))])]
}

const operationsOf = (spec: OpenApi): ReadonlyArray<Operation> =>
  Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const params = op.parameters ?? []
      const schema = Object.values(op.requestBody?.content ?? {})[0]?.schema
      return {
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        queryParams: params.filter((p) => p.in === "query").map((p) => p.name),
        bodyFields: fieldsOf(spec, schema)
      }
    })
  )

const deep = (depth: number) => "[".repeat(depth) + "1" + "]".repeat(depth)

/** A JSON value (as text) that is wrong for most fields. */
const nastyJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "null", "true", "0", "-1", "1.5", "1e308", "-99999999999999999999", "\"\"", "\"\\u0000\"", "\"a\\u0000b\"",
    "[]", "{}", "\"0000-01-01\"", "\"2031-02-30\"", "\"9999-12-31\"", "\"1999-12-31\"", "\"2031-03-10\"",
    `"${missingId}"`, "\"not-a-uuid\"", "\"EUR\"", "\"-0.001\"", "\"12.345\"", "[null]", "[{}]", "{\"a\":null}"
  ),
  fc.string({ maxLength: 40 }).map((s) => JSON.stringify(s)),
  fc.constantFrom(65, 5_000).map(deep),
  fc.constant(JSON.stringify("x".repeat(100_000)))
)

const nastyValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: nastyJson },
  { weight: 1, arbitrary: nastyJson.map((v) => `[${v}]`) },
  { weight: 1, arbitrary: nastyJson.map((v) => `[{"service_id":${v},"quantity":${v},"modifier_values":{"k":${v}}}]`) }
)

/** A body: an object of some of the operation's fields set to nasty values, or a body that is not one. */
const bodyOf = (fields: ReadonlyArray<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.array(fc.tuple(fc.constantFrom(...fields, "unknown_field"), nastyValue), { maxLength: 6 }).map(
      (entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`
    ) },
    { weight: 1, arbitrary: fc.constantFrom("", "not json", "{", "[]", "\"text\"", "null", "{\"a\":1,}", deep(70), deep(20_000)) }
  )

/** A path id: a real one, a missing one, or one that is not an id at all. */
const pathIdOf = (real: ReadonlyArray<string>): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...real, missingId, "x".repeat(150), "1".repeat(101), ".", "..", "%2e", "%2E%2E", "%00", "a%2Fb", "%ZZ"),
    fc.string({ maxLength: 30 }).map(encodeURIComponent)
  )

const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "", "%00", "a%00b", "0000-01-01", "2031-02-30", "9999-12-31", "2031-03-10", "2031-03-12", "-1", "0", "1", "2",
    "99999999999", "1e309", "true", "nope", missingId, "4,9", "4,,9", "x".repeat(5_000), "%ZZ"
  ),
  fc.string({ maxLength: 20 }).map(encodeURIComponent)
)

/** One malformed request for an operation: path with ids filled in, query string, body. */
const requestOf = (op: Operation, realIds: ReadonlyArray<string>) =>
  fc.record({
    ids: fc.tuple(...op.pathParams.map(() => pathIdOf(realIds))),
    query: fc.array(fc.tuple(fc.constantFrom(...op.queryParams, "unknown"), queryValue), { maxLength: 5 }),
    body: op.method === "GET" || op.method === "DELETE" ? fc.constant(undefined) : bodyOf(op.bodyFields),
    idempotencyKey: fc.option(fc.uuid(), { nil: undefined })
  }).map(({ body, ids, idempotencyKey, query }) => {
    let path = op.path
    op.pathParams.forEach((name, i) => {
      path = path.replace(`{${name}}`, ids[i] ?? missingId)
    })
    const search = query.map(([k, v]) => `${k}=${v}`).join("&")
    return { method: op.method, path: search.length > 0 ? `${path}?${search}` : path, body, idempotencyKey }
  })

interface Sent {
  readonly status: number
  readonly text: string
}

const send = (
  port: number,
  key: string,
  req: { method: string; path: string; body: string | undefined; idempotencyKey: string | undefined }
) =>
  new Promise<Sent>((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` }
    if (req.body !== undefined) headers["content-type"] = "application/json"
    if (req.idempotencyKey !== undefined) headers["idempotency-key"] = req.idempotencyKey
    const r = httpRequest({ host: "127.0.0.1", port, method: req.method, path: req.path, headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }))
      res.on("error", reject)
    })
    r.on("error", reject)
    r.end(req.body)
  })

/** No 5xx; a 4xx (other than 304-like empty answers) is exactly the envelope. */
const checkAnswer = (sent: Sent, label: string) => {
  expect(sent.status, `${label} → ${sent.text.slice(0, 300)}`).toBeLessThan(500)
  if (sent.status < 400) return
  const body = JSON.parse(sent.text) as { error?: Record<string, unknown> }
  expect(Object.keys(body), label).toEqual(["error"])
  const error = body.error ?? {}
  expect(typeof error.type, label).toBe("string")
  expect(typeof error.code, label).toBe("string")
  expect(typeof error.message, label).toBe("string")
  expect(error.request_id, label).toMatch(/^req_[0-9a-z]+$/)
  if ("param" in error) expect(typeof error.param, label).toBe("string")
  for (const k of Object.keys(error)) {
    expect(["type", "code", "message", "param", "estimated_end", "request_id"], label).toContain(k)
  }
}

layer(TestApiLive, { excludeTestServices: true })("faults: malformed requests to every operation", (it) => {
  it.effect(`${samplesPerOperation} malformed requests per operation: no 5xx, every 4xx is the envelope`, () =>
    Effect.gen(function*() {
      const api = yield* TestApi
      const port = Number(new URL(api.baseUrl).port)
      const guest = yield* newGuest(api)
      const held = yield* hold(api, holdBody(api, guest))
      const realIds = [
        guest,
        held.reservation_id,
        held.folio_id,
        api.property.rate_plans["BAR-DBL"],
        ...Object.values(api.property.room_types)
      ]
      const spec = (yield* api.get("/openapi.json")).json<OpenApi>()
      const operations = operationsOf(spec)
      expect(operations.length).toBeGreaterThan(20)
      // Every operation is tried; the failures of all of them are reported together.
      const failures: Array<string> = []
      for (const op of operations) {
        // A key per operation, so the per-key rate limit never hides an answer behind a 429.
        const key = yield* api.createKey()
        const details = yield* Effect.promise(() =>
          fc.check(
            fc.asyncProperty(requestOf(op, realIds), async (req) => {
              checkAnswer(await send(port, key, req), `${req.method} ${req.path.slice(0, 160)} ${(req.body ?? "").slice(0, 160)}`)
            }),
            { numRuns: samplesPerOperation, endOnFailure: true }
          )
        )
        if (details.failed) failures.push(`${op.method} ${op.path}: ${String(details.errorInstance).slice(0, 600)}`)
      }
      expect(failures, failures.join("\n\n")).toEqual([])
    }), { timeout: 180_000 })
})
