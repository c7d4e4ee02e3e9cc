import { describe, expect, it } from "@effect/vitest"
import { heldNights, overbookingHeld, roomsForStay } from "../../src/changes/rooms.js"

// The rooms a change's new stay needs: a night it already holds (same room type) counts what a live hold keeps,
// any other night what is for sale.

const current = { roomTypeId: "dbl", checkIn: "2031-03-10", checkOut: "2031-03-13" }

describe("the nights a change already holds", () => {
  it("are the new stay's nights inside the current stay, of the same room type, with the overbooking they were sold under", () => {
    expect(heldNights(current, { ...current, checkOut: "2031-03-12" }, [1, 0, 2])).toEqual([1, 0])
    expect(heldNights(current, { ...current, checkIn: "2031-03-12", checkOut: "2031-03-15" }, [1, 0, 2])).toEqual([2, null, null])
    expect(heldNights(current, { ...current, checkIn: "2031-03-08", checkOut: "2031-03-11" }, null)).toEqual([null, null, 0])
    expect(heldNights(current, { ...current, roomTypeId: "ste" }, [1, 1, 1])).toEqual([null, null, null])
  })

  it("a held night counts what a live hold keeps, another night what is for sale; the least over the stay", () => {
    const nights = [
      { availableToPickup: 0, availableToKeep: 1 },
      { availableToPickup: 2, availableToKeep: 3 }
    ]
    expect(roomsForStay(nights, [0, null])).toBe(1)
    expect(roomsForStay(nights, [null, 0])).toBe(0)
    expect(roomsForStay(nights, [0, 0])).toBe(1)
    expect(roomsForStay([], [])).toBe(0)
  })

  it("a kept night records at least the overbooking it was held under, a new night today's", () => {
    expect(overbookingHeld([0, 0, 2], [1, null, 0])).toEqual([1, 0, 2])
  })
})
