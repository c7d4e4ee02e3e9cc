import { describe, expect, it } from "@effect/vitest"
import * as BigDecimal from "effect/BigDecimal"
import * as Result from "effect/Result"
import * as fc from "fast-check"
import { settleCancellation } from "../../src/booking/settlement.js"
import { cancellationTerms } from "../../src/booking/cancellation/policy.js"
import { quoteCancellation, tiersInForce } from "../../src/booking/cancellation/quote.js"
import { redeem } from "../../src/guests/loyalty.js"
import { addDays } from "../../src/quotes/dates.js"
import type { CancellationTier } from "../../src/quotes/model.js"
import { type StayAction, stayStep } from "../../src/stays/transitions.js"
import { startOfLocalDay } from "../../src/rates/visibility/localTime.js"

const now = new Date("2031-03-10T12:00:00Z")
const today = "2031-03-10"
const step = (action: StayAction, status: string, checkIn: string, checkOut: string, holdExpiresAt: Date | null = null) =>
  Result.match(stayStep(action, { status, holdExpiresAt, checkIn, checkOut }, now, today), {
    onFailure: (error) => `refused: ${error.message}`,
    onSuccess: (to) => to
  })

describe("stay transitions", () => {
  it("check-in: confirmed, from the arrival date until the departure date", () => {
    expect(step("check_in", "confirmed", today, "2031-03-12")).toBe("checked_in")
    expect(step("check_in", "confirmed", "2031-03-08", "2031-03-11")).toBe("checked_in")
    expect(step("check_in", "confirmed", "2031-03-11", "2031-03-12")).toContain("opens on the arrival date 2031-03-11")
    expect(step("check_in", "confirmed", "2031-03-08", today)).toContain("ended on 2031-03-10")
    for (const status of ["tentative", "checked_in", "checked_out", "cancelled", "no_show"]) {
      expect(step("check_in", status, today, "2031-03-12", new Date(now.getTime() + 60_000))).toContain("refused")
    }
  })

  it("check-out: checked in only, any day", () => {
    expect(step("check_out", "checked_in", "2031-03-01", "2031-03-20")).toBe("checked_out")
    expect(step("check_out", "checked_in", "2031-03-01", "2031-03-05")).toBe("checked_out")
    for (const status of ["tentative", "confirmed", "checked_out", "cancelled", "no_show"]) {
      expect(step("check_out", status, today, "2031-03-12")).toContain("refused")
    }
  })

  it("no-show: confirmed, once the arrival date has passed", () => {
    expect(step("no_show", "confirmed", "2031-03-09", "2031-03-12")).toBe("no_show")
    expect(step("no_show", "confirmed", "2031-03-01", "2031-03-02")).toBe("no_show")
    expect(step("no_show", "confirmed", today, "2031-03-12")).toContain("has passed")
    for (const status of ["tentative", "checked_in", "checked_out", "cancelled", "no_show"]) {
      expect(step("no_show", status, "2031-03-01", "2031-03-12")).toContain("refused")
    }
  })

  it("an expired hold reads as cancelled", () => {
    expect(step("check_in", "tentative", today, "2031-03-12", new Date(now.getTime() - 1))).toContain("is cancelled")
  })
})

describe("loyalty redemption", () => {
  it("takes at most the balance; a negative balance blocks it", () => {
    expect(redeem(3900, 1000)).toEqual(Result.succeed(2900))
    expect(redeem(1000, 1000)).toEqual(Result.succeed(0))
    const more = redeem(999, 1000)
    expect(Result.isFailure(more) && more.failure._tag).toBe("InsufficientPoints")
    const negative = redeem(-5, 1)
    expect(Result.isFailure(negative) && negative.failure.message).toContain("-5")
  })
})

describe("cancellation quote", () => {
  const tiers: ReadonlyArray<CancellationTier> = [
    { daysBeforeArrival: 7, refundPercent: 100 },
    { daysBeforeArrival: 2, refundPercent: 50 },
    { daysBeforeArrival: 0, refundPercent: 0 }
  ]

  it("takes the frozen policy, else the plan's, else the property's", () => {
    expect(tiersInForce("frozen", "plan", "property")).toBe("frozen")
    expect(tiersInForce(null, "plan", "property")).toBe("plan")
    expect(tiersInForce(null, null, "property")).toBe("property")
  })

  it("is the cancel's own settlement at the same instant, with the end of the term in force", () => {
    const zone = "Europe/Lisbon"
    fc.assert(
      fc.property(
        fc.integer({ min: -3, max: 20 }),
        fc.integer({ min: 0, max: 86_399 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (arrival, second, cents) => {
          const at = new Date(Date.parse("2031-06-10T00:00:00Z") + second * 1000)
          const checkIn = addDays("2031-06-10", arrival)
          const input = { tiers, checkIn, timeZone: zone, now: at, paid: BigDecimal.make(BigInt(cents), 2), currency: "EUR" }
          const quoted = quoteCancellation(input)
          expect(quoted.settlement).toEqual(settleCancellation(input))
          const term = cancellationTerms(tiers, checkIn, zone, at)[0]
          expect(quoted.settlement.refundPercent).toBe(term.refundPercent)
          expect(quoted.tierUntil).toBe(term.until)
          if (quoted.tierUntil !== null) expect(Date.parse(quoted.tierUntil)).toBeGreaterThan(at.getTime())
        }
      )
    )
  })

  it("names when the percentage in force ends", () => {
    const input = { tiers, timeZone: "Europe/Lisbon", now, paid: BigDecimal.fromStringUnsafe("393.60"), currency: "EUR" }
    const far = quoteCancellation({ ...input, checkIn: addDays(today, 10) })
    expect([far.settlement.refundDueMinor, far.settlement.refundPercent, far.tierUntil])
      .toEqual([39360n, 100, startOfLocalDay(addDays(today, 4), "Europe/Lisbon").toISOString()])
    const near = quoteCancellation({ ...input, checkIn: addDays(today, 1) })
    expect([near.settlement.refundDueMinor, near.settlement.refundPercent, near.tierUntil]).toEqual([0n, 0, null])
  })
})
