import { describe, expect, it } from "@effect/vitest"
import * as HttpApi from "effect/http-api/HttpApi"
import { HotelApi } from "@hotel/api/Api"
import { Authorization, RequestBody } from "@hotel/api/common/Security"

// Idempotency applies to every POST, PATCH and DELETE, and only inside `RequestBody` (the body check and the
// `Idempotency-Key` claim, whose transaction the handler runs in) does a handler's change commit with its stored
// response: a mutation group declared without that middleware would run unprotected and no request test of
// other endpoints would notice. So the contract itself is checked.

const endpoints = () => {
  const found: Array<{ readonly name: string; readonly method: string; readonly middleware: ReadonlySet<unknown> }> = []
  HttpApi.reflect(HotelApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint, group, middleware }) =>
      found.push({ name: `${group.identifier}.${endpoint.identifier} ${endpoint.method} ${endpoint.path}`, method: endpoint.method, middleware })
  })
  return found
}

describe("HotelApi's middleware", () => {
  it("every POST, PATCH and DELETE runs in RequestBody (the body check and the key's transaction); all but health need a key", () => {
    const all = endpoints()
    const mutations = all.filter((e) => e.method === "POST" || e.method === "PATCH" || e.method === "DELETE")
    expect(mutations.length).toBeGreaterThan(20)
    expect(mutations.filter((e) => !e.middleware.has(RequestBody)).map((e) => e.name)).toEqual([])
    expect(all.filter((e) => !e.middleware.has(Authorization)).map((e) => e.name)).toEqual([
      "health.live GET /health/live",
      "health.ready GET /health/ready"
    ])
  })
})
