import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import * as Blocks from "../../src/blocks/index.js"
import type { NightState } from "../../src/blocks/nights.js"
import * as Money from "../../src/money/Money.js"
import { nightlyPrice } from "../../src/quotes/nightly.js"
import { d, plan } from "../quotes/fixtures.js"

// The pure rules of blocks: the nights a create or a PATCH sets, what a night has left, what a change takes from
// general sale, status transitions, who may pick up, and the block's price in the one pricer.

// `remaining` as the inventory count reckons it (persistence test/inventory/capacity.test.ts checks the rule).
const night = (date: string, units: number, pickups = 0, released = false): NightState =>
  ({ date, units, pickups, released, remaining: released ? 0 : Math.max(0, units - pickups) })

const paramOf = <A, E extends { readonly param?: string | undefined; readonly _tag: string }>(result: Result.Result<A, E>) =>
  Result.match(result, { onFailure: (error) => `${error._tag}:${error.param ?? ""}`, onSuccess: () => "ok" })

describe("block nights", () => {
  it.each([
    [{ units: 2 }, 3, "ok"],
    [{ units: 4 }, 3, "InvalidParameters:units"],
    [{}, 3, "InvalidParameters:units"],
    [{ units: 1, nights: [] }, 3, "InvalidParameters:units"],
    [{ nights: [{ date: "2031-05-01", units: 0 }, { date: "2031-05-02", units: 3 }] }, 3, "ok"],
    [{ nights: [{ date: "2031-05-01", units: 1 }] }, 3, "InvalidParameters:nights"],
    [{ nights: [{ date: "2031-05-03", units: 1 }] }, 3, "InvalidParameters:nights[0].date"],
    [{ nights: [{ date: "2031-05-01", units: 1 }, { date: "2031-05-01", units: 1 }] }, 3, "InvalidParameters:nights[1].date"],
    [{ nights: [{ date: "2031-05-01", units: 4 }] }, 3, "InvalidParameters:nights[0].units"]
  ])("plannedNights %j with %i rooms: %s", (input, rooms, expected) => {
    expect(paramOf(Blocks.plannedNights({ start_date: "2031-05-01", end_date: "2031-05-03", ...input }, rooms))).toBe(expected)
  })

  it.each([
    ["2031-05-01", "2031-05-01", "InvalidParameters:end_date"],
    ["2031-05-02", "2031-05-01", "InvalidParameters:end_date"],
    ["2031-01-01", "2032-01-02", "ok"],
    ["2031-01-01", "2032-01-03", "InvalidParameters:end_date"]
  ])("a range from %s to %s: %s", (start, end, expected) => {
    expect(paramOf(Blocks.rangeNights(start, end))).toBe(expected)
  })

  it("picked up is capped at units", () => {
    expect([night("a", 3, 1), night("a", 2, 3), night("a", 3, 1, true)].map(Blocks.pickedUp)).toEqual([1, 2, 1])
  })

  it("a PATCH below what is picked up is block_in_use; unchanged nights are not written", () => {
    const stored = [night("2031-05-01", 2, 2), night("2031-05-02", 2, 0)]
    expect(paramOf(Blocks.patchedNights({ units: 1 }, stored, 3))).toBe("BlockInUse:")
    expect(Blocks.patchedNights({ nights: [{ date: "2031-05-02", units: 1 }] }, stored, 3)).toEqual(
      Result.succeed([{ date: "2031-05-02", units: 1 }])
    )
    expect(Blocks.patchedNights({ units: 2 }, stored, 3)).toEqual(Result.succeed([]))
    expect(paramOf(Blocks.patchedNights({ units: 4 }, stored, 3))).toBe("InvalidParameters:units")
    expect(paramOf(Blocks.patchedNights({ nights: [{ date: "2031-05-03", units: 1 }] }, stored, 3))).toBe(
      "InvalidParameters:nights[0].date"
    )
  })

  it("a change takes from general sale only what a definite block sets aside beyond what it did", () => {
    const before = { status: "tentative" as const, nights: [night("a", 2, 1), night("b", 2, 0, true)] }
    expect(Blocks.roomsTaken(before, { ...before, status: "definite" })).toEqual([{ date: "a", needed: 1 }])
    expect(Blocks.roomsTaken(null, { status: "tentative", nights: [night("a", 2)] })).toEqual([])
    const definite = { status: "definite" as const, nights: [night("a", 1)] }
    expect(Blocks.roomsTaken(definite, { status: "definite", nights: [night("a", 3)] })).toEqual([{ date: "a", needed: 2 }])
    expect(Blocks.roomsTaken(definite, { status: "definite", nights: [night("a", 0)] })).toEqual([])
    expect(paramOf(Blocks.checkRoomsFree([{ date: "a", needed: 2, free: 1 }]))).toBe("NoAvailability:")
    expect(paramOf(Blocks.checkRoomsFree([{ date: "a", needed: 2, free: 2 }, { date: "b", needed: 0, free: 0 }]))).toBe("ok")
  })
})

describe("block status", () => {
  it.each([
    ["confirm", "tentative", "ok"],
    ["confirm", "definite", "InvalidStatusTransition:"],
    ["release", "definite", "ok"],
    ["release", "tentative", "InvalidStatusTransition:"],
    ["release", "released", "InvalidStatusTransition:"],
    ["cancel", "released", "ok"],
    ["cancel", "cancelled", "InvalidStatusTransition:"]
  ] as const)("%s of a %s block: %s", (action, status, expected) => {
    const result = action === "confirm" ? Blocks.confirm(status) : action === "release" ? Blocks.release(status) : Blocks.cancel(status, 0)
    expect(paramOf(result)).toBe(expected)
  })

  it("cancel with a live pickup is block_in_use; every night released reads released", () => {
    expect(paramOf(Blocks.cancel("definite", 1))).toBe("BlockInUse:")
    expect(Blocks.statusOf("definite", [night("a", 1, 0, true), night("b", 1, 0, true)])).toBe("released")
    expect(Blocks.statusOf("tentative", [night("a", 1, 0, true), night("b", 1)])).toBe("tentative")
    expect(Blocks.statusOf("cancelled", [night("a", 1, 0, true)])).toBe("cancelled")
  })

  it.each([
    [{ status: "definite", roomTypeId: "dbl", ratePlanId: "bar" }, "ok"],
    [{ status: "released", roomTypeId: "dbl", ratePlanId: "bar" }, "ok"],
    [{ status: "tentative", roomTypeId: "dbl", ratePlanId: "bar" }, "BlockNotDefinite:"],
    [{ status: "cancelled", roomTypeId: "dbl", ratePlanId: "bar" }, "BlockNotDefinite:"],
    [{ status: "tentative", roomTypeId: "twn", ratePlanId: "bar" }, "InvalidParameters:room_type_id"],
    [{ status: "definite", roomTypeId: "dbl", ratePlanId: "nr" }, "InvalidParameters:rate_plan_id"]
  ] as const)("a pickup of %j: %s", (block, expected) => {
    expect(paramOf(Blocks.checkPickup(block, { roomTypeId: "dbl", ratePlanId: "bar" }))).toBe(expected)
  })
})

describe("block price", () => {
  it("replaces the plan's nightly price (a derived plan's too) on the block's nights only", () => {
    const blockPrice = Blocks.pickupPrice({ start_date: "2031-05-01", end_date: "2031-05-03", price: "80.5" })
    const derived = plan({ derivation: { type: "percent", value: d("10"), parent: plan() }, blockPrice })
    const priced = ["2031-04-30", "2031-05-01", "2031-05-02", "2031-05-03"].map((date) =>
      Money.format(nightlyPrice(derived, date, 2, { trace: false }).amount, "EUR")
    )
    expect(priced).toEqual(["110.00", "80.50", "80.50", "110.00"])
    expect(Blocks.pickupPrice({ start_date: "a", end_date: "b", price: null })).toBeNull()
    expect(paramOf(Blocks.checkPrice("1.234", "EUR"))).toBe("InvalidParameters:price")
    expect(Blocks.checkPrice("12.5", "EUR")).toEqual(Result.succeed("12.5"))
  })
})
