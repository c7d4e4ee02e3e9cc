import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import { arrayOf } from "../../src/database/ArrayParameter.js"
import { TestDatabase } from "../utils/TestDatabase.js"

// Array parameters on a real server: the driver types an array by its elements, so one of nulls only cannot be
// bound by itself; named with its element type it can, and mixed arrays keep their values.

describe("array parameters", () => {
  layer(TestDatabase.layer(), { excludeTestServices: true })((it) => {
    it.effect("an array of nulls is refused untyped, and bound as its type when named", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const untyped = yield* Effect.flip(sql`SELECT cardinality(${[null, null]}::uuid[]) AS n`)
        expect(untyped._tag).toBe("SqlError")
        const rows = yield* sql<{ ids: ReadonlyArray<string | null>; n: number }>`
          SELECT ${arrayOf("uuid", [null, null])}::uuid[] AS ids, cardinality(${arrayOf("date", [null])}::date[]) AS n`
        expect(rows).toEqual([{ ids: [null, null], n: 1 }])
      }))

    it.effect("named arrays carry uuids, integers, numerics and dates, with nulls among them", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const id = "7b0f5a52-3c1e-4a59-9d4e-0c2b8f1e6a10"
        const rows = yield* sql<{ id: string | null; q: number | null; amount: string | null; night: string | null }>`
          SELECT x.id, x.q, x.amount, x.night FROM unnest(
            ${arrayOf("uuid", [id, null])}::uuid[], ${arrayOf("integer", [null, 3])}::integer[],
            ${arrayOf("numeric", ["12.50", null])}::numeric[], ${arrayOf("date", [null, "2030-02-28"])}::date[]
          ) AS x(id, q, amount, night)`
        expect(rows).toEqual([
          { id, q: null, amount: "12.50", night: null },
          { id: null, q: 3, amount: null, night: "2030-02-28" }
        ])
      }))
  })
})
