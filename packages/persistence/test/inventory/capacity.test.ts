import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Inventory } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import { TestDatabase } from "../utils/TestDatabase.js"

// One capacity rule: the SQL function every inventory count uses (`night_capacity`, migration 0013) and the
// domain's `Inventory.capacity` must answer alike for every night, with and without a sell limit.

describe("night capacity", () => {
  layer(TestDatabase.layer())((it) => {
    it.effect("night_capacity in SQL and Inventory.capacity agree", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const nights = fc.sample(
          fc.record({
            rooms: fc.nat(12),
            outOfOrder: fc.nat(12),
            sellLimit: fc.option(fc.nat(12), { nil: null }),
            overbooking: fc.nat(12)
          }).filter((night) => night.outOfOrder <= night.rooms),
          200
        )
        for (const night of nights) {
          const [row] = yield* sql<{ capacity: number }>`
            SELECT night_capacity(${night.rooms - night.outOfOrder}::int, ${night.sellLimit}::int, ${night.overbooking}::int) AS capacity`
          expect({ night, capacity: row.capacity }).toEqual({ night, capacity: Inventory.capacity(night) })
        }
      }))
  })
})
