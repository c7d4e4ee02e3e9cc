import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as SqlClient from "effect/sql/SqlClient"
import { isSqlError } from "effect/sql/SqlError"
import { DatabaseUrl } from "../../src/database/DatabaseUrl.js"
import { defaultHostBounds } from "../../src/database/PoolSettings.js"
import { sqlLayer } from "../../src/database/Sql.js"
import { onePlainConnection } from "../utils/poolSettings.js"
import { TestDatabase } from "../utils/TestDatabase.js"

// `sslmode` with libpq's meaning, against the test server (which offers no TLS): `prefer` goes on in plain,
// `require` is refused before any statement, and a mode libpq does not know stops the client from starting.

const withMode = (mode: string) =>
  Effect.map(DatabaseUrl, (url) => {
    const parsed = new URL(Redacted.value(url))
    parsed.searchParams.set("sslmode", mode)
    return parsed.toString()
  })

const select1 = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ one: number }>`SELECT 1 AS one`)

const on = (url: string) => Effect.provide(select1, sqlLayer(Redacted.make(url), onePlainConnection, defaultHostBounds))

const causeText = (error: unknown) =>
  isSqlError(error) && error.reason.cause instanceof Error ? error.reason.cause.message : String(error)

describe("sslmode", () => {
  layer(TestDatabase.layer(), { excludeTestServices: true })((it) => {
    it.effect("prefer on a server without TLS: the session goes on in plain", () =>
      Effect.gen(function*() {
        expect(yield* on(yield* withMode("prefer"))).toEqual([{ one: 1 }])
        expect(yield* on(yield* withMode("disable"))).toEqual([{ one: 1 }])
      }))

    it.effect("require on a server without TLS: refused, saying so", () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(on(yield* withMode("require")))
        expect(causeText(error)).toBe("The server does not support SSL connections")
      }))

    it.effect("an sslmode libpq does not know: the client does not start", () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(on(yield* withMode("sometimes")))
        expect(causeText(error)).toBe(
          "sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full, not \"sometimes\""
        )
      }))
  })
})
