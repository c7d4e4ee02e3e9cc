import { describe, expect, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as Result from "effect/Result"
import * as fc from "fast-check"
import {
  bookingConfirmStep,
  bookingStay,
  bookingTotal,
  checkConfirmableAlone,
  checkHoldLimits,
  checkOneCurrency,
  inRoom,
  liveHoldsForRoom,
  maxLiveHoldsPerGuest
} from "../../src/booking/index.js"
import { GuestNotFound, NoAvailability, PartyTooLarge } from "../../src/errors/index.js"
import { CurrencyMismatch } from "../../src/errors/BusinessErrors.js"
import { InvalidParameters } from "../../src/errors/RequestErrors.js"
import * as Money from "../../src/money/Money.js"

const outcome = <A, E extends { readonly _tag: string }>(either: Result.Result<A, E>) =>
  Result.match(either, { onFailure: (error) => error._tag, onSuccess: (value) => String(value) })

describe("a room's refusal as the booking's", () => {
  it.each([
    { param: "adults", message: "adults must be 1 to 20", index: 1, expected: ["rooms[1].adults", "rooms[1].adults must be 1 to 20"] },
    { param: "add_ons[2].quantity", message: "add_ons[2].quantity must be 1 to 99", index: 0, expected: ["rooms[0].add_ons[2].quantity", "rooms[0].add_ons[2].quantity must be 1 to 99"] },
    { param: "bed_config", message: "the room type offers \"king\"", index: 3, expected: ["rooms[3].bed_config", "rooms[3].bed_config: the room type offers \"king\""] },
    { param: "check_out", message: "check_out must be after check_in", index: 2, expected: ["check_out", "check_out must be after check_in"] },
    { param: "check_in", message: "check_in must not be before today", index: 2, expected: ["check_in", "check_in must not be before today"] }
  ])("$param of room $index", ({ expected, index, message, param }) => {
    const scoped = inRoom(index, new InvalidParameters({ message, param }))
    expect(scoped).toBeInstanceOf(InvalidParameters)
    expect([scoped.param, scoped.message]).toEqual(expected)
  })

  it("a refusal without a param keeps its class, gains no param, and names the room in its message", () => {
    for (const error of [new NoAvailability({ message: "No A is free" }), new PartyTooLarge({ message: "A party of 5" })]) {
      const scoped = inRoom(2, error)
      expect(scoped._tag).toBe(error._tag)
      expect(scoped.param).toBeUndefined()
      expect(scoped.message).toBe(`rooms[2]: ${error.message}`)
    }
    const guest = new GuestNotFound({ message: "No guest g" })
    expect(inRoom(1, guest)).toBe(guest)
  })
})

describe("the live holds a booking's room is decided on", () => {
  it("room i counts the booking's i earlier rooms: a guest with L live holds books at most 10 - L rooms", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 10 }), (live, rooms) => {
      const refused = Array.from({ length: rooms }, (_, i) =>
        Result.isFailure(checkHoldLimits(liveHoldsForRoom({ guest: live, apiKey: 0, apiKeyMax: null }, i))))
      const firstRefused = refused.indexOf(true)
      expect(firstRefused < 0 ? rooms : firstRefused).toBe(Math.min(rooms, Math.max(0, maxLiveHoldsPerGuest - live)))
    }))
  })

  it("a capped key counts them too", () => {
    const live = { guest: 0, apiKey: 1, apiKeyMax: 3 }
    expect([0, 1, 2].map((i) => outcome(checkHoldLimits(liveHoldsForRoom(live, i))))).toEqual(["undefined", "undefined", "HoldLimitReached"])
  })
})

describe("one currency", () => {
  it.each([
    { currencies: ["EUR"], expected: null },
    { currencies: ["EUR", "EUR", "EUR"], expected: null },
    { currencies: ["EUR", "USD"], expected: "rooms[1].rate_plan_id" },
    { currencies: ["USD", "USD", "EUR", "JPY"], expected: "rooms[2].rate_plan_id" }
  ])("$currencies", ({ currencies, expected }) => {
    const checked = checkOneCurrency(currencies)
    if (expected === null) expect(Result.isSuccess(checked)).toBe(true)
    else {
      expect(Result.isFailure(checked) && checked.failure).toBeInstanceOf(CurrencyMismatch)
      expect(Result.isFailure(checked) ? checked.failure.param : undefined).toBe(expected)
    }
  })
})

describe("whether a booking may be confirmed", () => {
  const now = new Date("2031-01-01T10:00:00Z")
  const live = { status: "tentative", holdExpiresAt: new Date("2031-01-01T10:10:00Z"), cancellationReason: null }
  const expired = { ...live, holdExpiresAt: new Date("2031-01-01T09:59:00Z") }
  const swept = { status: "cancelled", holdExpiresAt: expired.holdExpiresAt, cancellationReason: "hold_expired" }
  const cancelled = { status: "cancelled", holdExpiresAt: live.holdExpiresAt, cancellationReason: "cancelled" }
  const confirmed = { status: "confirmed", holdExpiresAt: live.holdExpiresAt, cancellationReason: null }
  it.each([
    { name: "all live", rooms: [live, live], expected: "confirm" },
    { name: "all confirmed", rooms: [confirmed, confirmed], expected: "already_confirmed" },
    { name: "all expired", rooms: [expired, expired], expected: "HoldExpired" },
    { name: "swept", rooms: [swept, swept], expected: "HoldExpired" },
    { name: "one cancelled", rooms: [live, cancelled], expected: "NotConfirmable" },
    { name: "one cancelled, the rest expired", rooms: [cancelled, expired], expected: "HoldExpired" },
    { name: "confirmed, then one cancelled", rooms: [confirmed, cancelled], expected: "NotConfirmable" },
    { name: "mixed", rooms: [confirmed, live], expected: "NotConfirmable" }
  ])("$name: $expected", ({ expected, rooms }) => {
    expect(outcome(bookingConfirmStep(rooms, now))).toBe(expected)
  })

  it("a reservation of a booking is not confirmable alone", () => {
    expect(outcome(checkConfirmableAlone(null))).toBe("undefined")
    expect(outcome(checkConfirmableAlone("b"))).toBe("NotConfirmable")
  })

  it("the booking's total is the sum of its rooms'", () => {
    expect(BigDecimal.format(bookingTotal(["120.00", "0.50", "99.99"].map(Money.fromDb)))).toBe("220.49")
  })

  it.each([
    { name: "every room", statuses: ["confirmed", "tentative", "checked_in"], expected: ["2031-03-08", "2031-03-20", "600.00"] },
    { name: "the rooms not cancelled", statuses: ["cancelled", "confirmed", "cancelled"], expected: ["2031-03-10", "2031-03-13", "200.00"] },
    { name: "a no-show counts", statuses: ["no_show", "cancelled", "cancelled"], expected: ["2031-03-08", "2031-03-12", "100.00"] },
    { name: "all once every one is cancelled", statuses: ["cancelled", "cancelled", "cancelled"], expected: ["2031-03-08", "2031-03-20", "600.00"] }
  ])("a booking's stay spans $name", ({ expected, statuses }) => {
    const dates = [["2031-03-08", "2031-03-12"], ["2031-03-10", "2031-03-13"], ["2031-03-15", "2031-03-20"]]
    const totals = ["100.00", "200.00", "300.00"]
    const [first, ...rest] = statuses.map((status, i) => ({ status, checkIn: dates[i][0], checkOut: dates[i][1], total: Money.fromDb(totals[i]) }))
    const stay = bookingStay([first, ...rest])
    expect([stay.checkIn, stay.checkOut, Money.format(stay.total, "EUR")]).toEqual(expected)
  })
})
