import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Inventory from "../../src/inventory/index.js"

// The rules sale applies to a night's figures and the inventory writes' own rules, as tables.

const night = (rooms: number, outOfOrder: number, sellLimit: number | null, overbooking: number) =>
  ({ rooms, outOfOrder, sellLimit, overbooking })

const paramOf = <A, E extends { readonly param?: string | undefined; readonly _tag: string }>(result: Result.Result<A, E>) =>
  Result.match(result, { onFailure: (error) => `${error._tag}:${error.param ?? ""}`, onSuccess: () => "ok" })

describe("capacity", () => {
  // The capacity itself is SQL (`night_capacity`): persistence test/inventory/capacity.test.ts.
  it.each([
    [{ capacity: 5, taken: 2, blocked: 1, own: 0 }, { available: 2, availableToPickup: 2 }],
    [{ capacity: 5, taken: 5, blocked: 1, own: 1 }, { available: 0, availableToPickup: 1 }],
    [{ capacity: 3, taken: 5, blocked: 0, own: 0 }, { available: 0, availableToPickup: 0 }]
  ])("free for sale at %j: %j", (facts, expected) => {
    expect(Inventory.freeForSale(facts)).toEqual(expected)
  })

  it("rooms in service with overbooking cover what is taken; the sell limit does not count", () => {
    expect(Inventory.coversTaken({ ...night(3, 1, 0, 0), taken: 2, blocked: 0 })).toBe(true)
    expect(Inventory.coversTaken({ ...night(3, 2, null, 0), taken: 2, blocked: 0 })).toBe(false)
    expect(Inventory.coversTaken({ ...night(3, 2, null, 1), taken: 1, blocked: 1 })).toBe(true)
    expect(Inventory.roomsToKeep({ ...night(3, 0, 0, 0), taken: 2, blocked: 0, own: 0 })).toBe(1)
    expect(Inventory.roomsToKeep({ ...night(2, 0, null, 0), taken: 2, blocked: 0, own: 1 })).toBe(1)
  })

  it.each([
    // 5 rooms, overbooking 1 when the night's 6th stay was sold, 0 now: every live hold keeps its night
    [{ overbooking: 0, soldUnder: 1, taken: 5 }, 1],
    // the same, and a stay sold beyond any capacity (behind the rules): nothing to keep
    [{ overbooking: 0, soldUnder: 1, taken: 6 }, 0],
    // overbooking raised since: the current one counts
    [{ overbooking: 2, soldUnder: 1, taken: 6 }, 1],
    // nothing recorded (rows from before it was): the current overbooking
    [{ overbooking: 0, soldUnder: 0, taken: 5 }, 0],
    [{ overbooking: 0, soldUnder: undefined, taken: 4 }, 1]
  ])("a live hold keeps a night at %j: %i room(s)", ({ overbooking, soldUnder, taken }, expected) => {
    expect(Inventory.roomsToKeep({ ...night(5, 0, 3, overbooking), taken, blocked: 0, own: 0, soldUnder })).toBe(expected)
  })

})

describe("inventory writes", () => {
  const range = { start_date: "2031-05-04", end_date: "2031-05-11" }
  it.each([
    [{ sell_limit: 2 }, "ok"],
    [{ overbooking: 1 }, "ok"],
    [{ sell_limit: null }, "ok"],
    [{}, "InvalidParameters:sell_limit"],
    [{ sell_limit: 4 }, "InvalidParameters:sell_limit"],
    [{ overbooking: 4 }, "InvalidParameters:overbooking"],
    [{ sell_limit: 1, end_date: "2031-05-04" }, "InvalidParameters:end_date"],
    [{ sell_limit: 1, end_date: "2032-05-05" }, "InvalidParameters:end_date"]
  ])("a PUT of %j on a type of 3 rooms: %s", (over, expected) => {
    expect(paramOf(Inventory.plannedControls({ ...range, ...over }, 3))).toBe(expected)
  })

  it("days keeps only the weekdays listed (2031-05-04 is a Sunday)", () => {
    expect(Inventory.plannedControls({ ...range, days: ["sat", "sun"], sell_limit: 1 }, 3)).toEqual(
      Result.succeed(["2031-05-04", "2031-05-10"])
    )
    expect(Result.map(Inventory.plannedControls({ ...range, overbooking: 1 }, 3), (nights) => nights.length)).toEqual(Result.succeed(7))
  })
})
