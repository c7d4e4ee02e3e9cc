import * as SqlClient from "effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ApiKeyRepository, hashKey } from "../../src/platform/ApiKeyRepository.js"
import { TestDatabase } from "../utils/TestDatabase.js"

const TestLayer = ApiKeyRepository.layer.pipe(Layer.provideMerge(TestDatabase.layer()))

/** A key row written straight to the table, with whatever sales context is given. */
const storedKey = (context: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [property] = yield* sql<{ id: string }>`
      INSERT INTO properties (code, name, timezone, base_currency)
      VALUES (${`P-${context}`}, 'Key test', 'Europe/Lisbon', 'EUR') RETURNING id`
    const hash = hashKey(`secret-${context}`)
    yield* sql`
      INSERT INTO api_keys (property_id, key_hash, scopes, context)
      VALUES (${property.id}, ${hash}, ${["reservations:read"]}::text[], ${context})`
    return hash
  }).pipe(Effect.orDie)

describe("ApiKeyRepository.findByHash", () => {
  layer(TestLayer)((it) => {
    it.effect("reads a known sales context as stored", () =>
      Effect.gen(function*() {
        const hash = yield* storedKey("channel")
        const found = yield* (yield* ApiKeyRepository).findByHash(hash)
        expect(Option.map(found, (stored) => stored.key.context)).toEqual(Option.some("channel"))
      }))

    it.effect("an unknown stored sales context is a defect, never the widest visibility", () =>
      Effect.gen(function*() {
        const hash = yield* storedKey("partner")
        const exit = yield* Effect.exit((yield* ApiKeyRepository).findByHash(hash))
        expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
      }))
  })
})
