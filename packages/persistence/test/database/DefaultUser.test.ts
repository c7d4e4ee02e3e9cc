import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as SqlClient from "effect/sql/SqlClient"
import { DatabaseUrl } from "../../src/database/DatabaseUrl.js"
import { defaultHostBounds } from "../../src/database/PoolSettings.js"
import { sqlLayer } from "../../src/database/Sql.js"
import { onePlainConnection } from "../utils/poolSettings.js"
import { TestDatabase } from "../utils/TestDatabase.js"

// A URL that names no user connects as libpq's would: as `PGUSER` (the failover drill's formation URL,
// `postgres://node1,node2/hotel`, relies on it), whatever `USER` says.

const currentUser = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ user: string }>`SELECT current_user AS user`)

/** Runs `effect` with the environment variables `changes` set (or removed), then puts them back. */
const withEnvironment = <A, E, R>(changes: Readonly<Record<string, string | undefined>>, effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const saved = Object.fromEntries(Object.keys(changes).map((name) => [name, process.env[name]]))
      for (const [name, value] of Object.entries(changes)) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
      return saved
    }),
    () => effect,
    (saved) =>
      Effect.sync(() => {
        for (const [name, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[name]
          else process.env[name] = value
        }
      })
  )

describe("a URL without a user", () => {
  layer(TestDatabase.layer(), { excludeTestServices: true })((it) => {
    it.effect("connects as PGUSER, with USER unset", () =>
      Effect.gen(function*() {
        const url = new URL(Redacted.value(yield* DatabaseUrl))
        const user = decodeURIComponent(url.username)
        expect(user).not.toBe("")
        url.username = ""
        const rows = yield* withEnvironment(
          { PGUSER: user, USER: undefined, USERNAME: undefined },
          Effect.provide(currentUser, sqlLayer(Redacted.make(url.toString()), onePlainConnection, defaultHostBounds))
        )
        expect(rows).toEqual([{ user }])
      }))
  })
})
