import { expect, layer } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import { allScopes } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { serveProcess } from "./utils/processes.js"
import { TestSqlLive } from "./utils/TestDatabase.js"

interface StartDocument {
  readonly demo: { readonly property_id: string; readonly default_rate_plan_id: string }
  readonly api_key: { readonly api_key_id: string; readonly key: string }
}

// `npm start` is `hotel serve`: on an empty database it imports the demo once and prints its ids and a key.
layer(TestSqlLive, { timeout: "240 seconds", excludeTestServices: true })("npm start", (it) => {
  it.effect("imports the demo property exactly once and prints an all-scopes key that works", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const first = yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* serveProcess
        const printed = JSON.parse(server.stdout()) as StartDocument
        const me = yield* Effect.promise(() =>
          fetch(`${server.baseUrl}/me`, { headers: { authorization: `Bearer ${printed.api_key.key}` } })
            .then((res) => res.json() as Promise<{ property_id: string; scopes: ReadonlyArray<string> }>)
        )
        expect(me.property_id).toBe(printed.demo.property_id)
        expect(me.scopes).toHaveLength(allScopes.length)
        return printed
      }))
      expect(first.demo.default_rate_plan_id).toMatch(/^[0-9a-f-]{36}$/)

      const secondOutput = yield* Effect.scoped(Effect.map(serveProcess, (server) => server.stdout()))
      expect(secondOutput).not.toContain("demo")
      const [counts] = yield* sql<{ properties: number; keys: number }>`
        SELECT (SELECT count(*)::int FROM properties) AS properties, (SELECT count(*)::int FROM api_keys) AS keys`
      expect(counts).toEqual({ properties: 1, keys: 1 })
    }), 240_000)
})
