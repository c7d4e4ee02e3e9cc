import { expect, layer } from "@effect/vitest"
import * as SqlClient from "effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { allScopes } from "@hotel/domain"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { freePort } from "../../../persistence/test/utils/freePort.js"
import { makeClient } from "../utils/client.js"
import { npmStartProcessWith } from "../utils/processes.js"
import { TestSqlLive } from "../utils/TestDatabase.js"

interface StartDocument {
  readonly demo: { readonly property_id: string; readonly default_rate_plan_id: string }
  readonly api_key: { readonly api_key_id: string; readonly key: string }
}

/** A scratch data directory for an embedded server, removed when the scope closes. */
const scratchDataDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "hotel-start-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

layer(TestSqlLive, { timeout: "240 seconds", excludeTestServices: true })("npm start", (it) => {
  // A production database (DATABASE_URL) must never receive the demo nor see an all-scopes key in the logs.
  it.effect("with DATABASE_URL on an empty database: serves, prints no key and imports nothing", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const output = yield* Effect.scoped(Effect.map(npmStartProcessWith({}), (server) => server.stdout()))
      expect(output).not.toContain("api_key")
      expect(output).not.toContain("hk_")
      const [counts] = yield* sql<{ properties: number; keys: number }>`
        SELECT (SELECT count(*)::int FROM properties) AS properties, (SELECT count(*)::int FROM api_keys) AS keys`
      expect(counts).toEqual({ properties: 0, keys: 0 })
    }), 240_000)

  // `npm start` on a fresh clone: the embedded server, the demo imported once, its all-scopes key printed once.
  it.effect("without DATABASE_URL: imports the demo into the empty embedded database exactly once", () =>
    Effect.scoped(Effect.gen(function*() {
      const dataDir = yield* scratchDataDir
      const pgPort = yield* freePort()
      const embedded = { DATABASE_URL: "", HOTEL_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) }
      const first = yield* Effect.scoped(Effect.gen(function*() {
        const server = yield* npmStartProcessWith(embedded)
        const printed = JSON.parse(server.stdout()) as StartDocument
        const client = yield* makeClient(server.baseUrl, printed.api_key.key)
        const me = yield* client.me.me()
        expect(me.property_id).toBe(printed.demo.property_id)
        expect(me.scopes).toHaveLength(allScopes.length)
        return printed
      }))
      expect(first.demo.default_rate_plan_id).toMatch(/^[0-9a-f-]{36}$/)

      const second = yield* Effect.scoped(Effect.map(npmStartProcessWith(embedded), (server) => ({
        stdout: server.stdout(),
        output: server.output()
      })))
      expect(second.stdout).not.toContain("demo")
      // No key this time, but where the docs are and how to get one.
      expect(second.output).toContain("/docs")
      expect(second.output).toContain("/openapi.json")
      expect(second.output).toContain(`npm run -s hotel -- key create --property ${first.demo.property_id}`)
      expect(second.output).toContain("npm run -s hotel -- demo")
    })), 240_000)
})
