import { describe, expect, it } from "@effect/vitest"
import * as Result from "effect/Result"
import {
  changedFields,
  changeStep,
  checkChange,
  needsVisibility,
  resolveTarget,
  type StayTerms
} from "../../src/changes/target.js"

const current: StayTerms = {
  roomTypeId: "dbl",
  ratePlanId: "bar",
  checkIn: "2031-03-10",
  checkOut: "2031-03-12",
  adults: 2,
  children: 1,
  childAges: [7],
  promoCode: "SUMMER",
  specialNotes: null
}

const now = new Date("2031-03-01T10:00:00Z")
const later = new Date("2031-03-01T10:20:00Z")

/** The outcome of an Either as its error's tag and param, or "ok". */
const outcome = <A>(result: Result.Result<A, { readonly _tag: string; readonly param?: string | undefined }>) =>
  Result.match(result, { onFailure: (e) => `${e._tag}${e.param === undefined ? "" : `:${e.param}`}`, onSuccess: () => "ok" })

describe("resolveTarget and changedFields", () => {
  it.each([
    ["nothing sent keeps everything", {}, current, []],
    ["a new count forgets the ages", { children: 2 }, { ...current, children: 2, childAges: null }, ["children"]],
    ["the same count keeps the ages", { children: 1 }, current, []],
    ["child_ages decides children", { childAges: [3, 9] }, { ...current, children: 2, childAges: [3, 9] }, ["children"]],
    ["null child_ages forgets them", { childAges: null }, { ...current, childAges: null }, ["children"]],
    ["a promo code in other case is the same", { promoCode: "summer" }, { ...current, promoCode: "summer" }, []],
    ["an empty promo code clears it", { promoCode: "" }, { ...current, promoCode: null }, ["promo_code"]],
    ["dates and notes", { checkOut: "2031-03-13", specialNotes: "x" }, { ...current, checkOut: "2031-03-13", specialNotes: "x" }, ["check_out", "special_notes"]],
    ["room type and plan", { roomTypeId: "ste", ratePlanId: "bar-ste" }, { ...current, roomTypeId: "ste", ratePlanId: "bar-ste" }, ["room_type_id", "rate_plan_id"]]
  ] as const)("%s", (_, change, target, changed) => {
    const resolved = resolveTarget(current, change)
    expect(resolved).toEqual(target)
    expect(changedFields(current, resolved)).toEqual(changed)
  })

  it("visibility is checked for anything but the notes", () => {
    expect(needsVisibility([])).toBe(false)
    expect(needsVisibility(["special_notes"])).toBe(false)
    expect(needsVisibility(["special_notes", "adults"])).toBe(true)
  })
})

describe("changeStep: who may change", () => {
  const hold = { status: "tentative", holdExpiresAt: new Date("2031-03-01T10:15:00Z"), cancellationReason: null }
  it.each([
    ["a live hold", hold, now, "ok"],
    ["an expired hold", hold, later, "HoldExpired"],
    ["a swept hold", { ...hold, status: "cancelled", cancellationReason: "hold_expired" }, later, "HoldExpired"],
    ["confirmed", { ...hold, status: "confirmed" }, later, "ok"],
    ["checked in", { ...hold, status: "checked_in" }, later, "ok"],
    ["cancelled", { ...hold, status: "cancelled", cancellationReason: "cancelled" }, now, "NotModifiable"],
    ["checked out", { ...hold, status: "checked_out" }, now, "NotModifiable"],
    ["no-show", { ...hold, status: "no_show" }, now, "NotModifiable"]
  ] as const)("%s", (_, facts, at, expected) => {
    expect(outcome(changeStep(facts, at))).toBe(expected)
  })
})

describe("checkChange: the stay's field rules by status", () => {
  it.each([
    ["confirmed: any field", "confirmed", { adults: 1, roomTypeId: "ste" }, "2031-03-01", "ok"],
    ["check-out not after check-in", "confirmed", { checkOut: "2031-03-10" }, "2031-03-01", "InvalidParameters:check_out"],
    ["more than 30 nights", "hold", { checkOut: "2031-04-10" }, "2031-03-01", "InvalidParameters:check_out"],
    ["a check-in moved into the past", "confirmed", { checkIn: "2031-03-11" }, "2031-03-12", "InvalidParameters:check_in"],
    ["checked in: an unchanged past check-in", "checked_in", { checkOut: "2031-03-14" }, "2031-03-11", "ok"],
    ["checked in: the party", "checked_in", { adults: 1 }, "2031-03-11", "NotModifiable"],
    ["checked in: the plan", "checked_in", { ratePlanId: "other" }, "2031-03-11", "NotModifiable"],
    ["checked in: check-out before tomorrow", "checked_in", { checkOut: "2031-03-11" }, "2031-03-11", "InvalidParameters:check_out"],
    ["checked in: check-out tomorrow", "checked_in", { checkOut: "2031-03-12", specialNotes: "x" }, "2031-03-11", "ok"]
  ] as const)("%s", (_, step, change, today, expected) => {
    expect(outcome(checkChange(step, current, resolveTarget(current, change), today))).toBe(expected)
  })
})
