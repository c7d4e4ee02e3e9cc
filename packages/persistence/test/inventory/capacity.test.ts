import * as SqlClient from "effect/sql/SqlClient"
import { describe, expect, layer } from "@effect/vitest"
import { Inventory } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import { remainingUnits } from "../../src/inventory/inventorySql.js"
import { TestDatabase } from "../utils/TestDatabase.js"

// The rules the inventory statement computes, on the real database: a night's capacity (`night_capacity`,
// migration 0013) and what a block's night has left (`remainingUnits`, which a block's read shares).

const night = (rooms: number, outOfOrder: number, sellLimit: number | null, overbooking: number) =>
  ({ rooms, outOfOrder, sellLimit, overbooking })

describe("night capacity", () => {
  layer(TestDatabase.layer())((it) => {
    const capacityOf = (supply: Inventory.NightSupply) =>
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.map(
          sql<{ capacity: number }>`
            SELECT night_capacity(${supply.rooms - supply.outOfOrder}::int, ${supply.sellLimit}::int,
                                  ${supply.overbooking}::int) AS capacity`,
          ([row]) => row?.capacity
        ))

    it.effect("min(rooms in service, sell limit when set) + overbooking", () =>
      Effect.gen(function*() {
        const cases: ReadonlyArray<readonly [Inventory.NightSupply, number]> = [
          [night(10, 0, null, 0), 10],
          [night(10, 2, null, 0), 8],
          [night(10, 2, 5, 0), 5],
          [night(10, 7, 5, 0), 3],
          [night(10, 0, 5, 2), 7],
          [night(10, 0, null, 1), 11],
          [night(10, 10, null, 1), 1],
          [night(10, 0, 0, 0), 0],
          [night(0, 0, null, 0), 0]
        ]
        for (const [supply, expected] of cases) {
          expect({ supply, capacity: yield* capacityOf(supply) }).toEqual({ supply, capacity: expected })
        }
      }))

    it.effect("never more than rooms in service plus overbooking, never below the overbooking (property)", () =>
      Effect.gen(function*() {
        const nights = fc.sample(
          fc.tuple(fc.nat(20), fc.nat(20), fc.option(fc.nat(20), { nil: null }), fc.nat(20))
            .map(([rooms, broken, limit, over]) => night(rooms, Math.min(broken, rooms), limit, over)),
          200
        )
        for (const supply of nights) {
          const sold = yield* capacityOf(supply)
          expect(sold).toBeLessThanOrEqual(Inventory.inService(supply) + supply.overbooking)
          expect(sold).toBeGreaterThanOrEqual(supply.overbooking)
          if (supply.sellLimit !== null) expect(sold).toBeLessThanOrEqual(supply.sellLimit + supply.overbooking)
        }
      }))

    it.effect("a block's night has units minus pickups left, never below zero, and none once released", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const left = (units: number, pickups: number, released: boolean) =>
          Effect.map(
            sql<{ remaining: number }>`SELECT ${remainingUnits(sql, {
              units: sql`${units}::int`,
              pickups: sql`${pickups}::int`,
              released: sql`${released}::boolean`
            })} AS remaining`,
            ([row]) => row?.remaining
          )
        expect([yield* left(3, 1, false), yield* left(2, 3, false), yield* left(3, 1, true)]).toEqual([2, 0, 0])
      }))
  })
})
