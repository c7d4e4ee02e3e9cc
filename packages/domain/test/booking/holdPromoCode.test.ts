import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { frozenPromoCode } from "../../src/booking/holdPromoCode.js"
import type { RatePlan } from "../../src/quotes/model.js"
import { isRedeemable, type PromoCodeState, sameCode } from "../../src/rates/visibility/promoCodes.js"
import { derived, plan } from "../quotes/fixtures.js"

const today = "2026-11-20"
const code = (id: string, ratePlanId: string, overrides: Partial<PromoCodeState> = {}): PromoCodeState => ({
  id,
  ratePlanId,
  code: "WINTER",
  isActive: true,
  redemptions: 0,
  ...overrides
})
const frozen = (model: RatePlan, codes: ReadonlyArray<PromoCodeState>, given: string | null) =>
  frozenPromoCode({ today, promoCodes: codes }, { model }, given)?.id ?? null

const gated = plan({ id: "bar", requiresPromoCode: true })
const open = plan({ id: "bar" })

describe("frozenPromoCode", () => {
  it.each<{ case: string; model: RatePlan; codes: ReadonlyArray<PromoCodeState>; given: string | null; expected: string | null }>([
    { case: "no code sent", model: gated, codes: [code("c1", "bar")], given: null, expected: null },
    { case: "an empty code", model: gated, codes: [code("c1", "bar")], given: "", expected: null },
    { case: "the plan's code", model: gated, codes: [code("c1", "bar")], given: "WINTER", expected: "c1" },
    { case: "matched in any case", model: gated, codes: [code("c1", "bar")], given: "winter", expected: "c1" },
    { case: "a plan that requires none records none", model: open, codes: [code("c1", "bar")], given: "WINTER", expected: null },
    { case: "another text", model: gated, codes: [code("c1", "bar")], given: "SUMMER", expected: null },
    { case: "another plan's code", model: gated, codes: [code("c1", "other")], given: "WINTER", expected: null },
    { case: "an inactive code", model: gated, codes: [code("c1", "bar", { isActive: false })], given: "WINTER", expected: null },
    { case: "a deleted code", model: gated, codes: [code("c1", "bar", { deleted: true })], given: "WINTER", expected: null },
    { case: "valid from today", model: gated, codes: [code("c1", "bar", { validFrom: today })], given: "WINTER", expected: "c1" },
    { case: "valid until today", model: gated, codes: [code("c1", "bar", { validTo: today })], given: "WINTER", expected: "c1" },
    { case: "not yet valid", model: gated, codes: [code("c1", "bar", { validFrom: "2026-11-21" })], given: "WINTER", expected: null },
    { case: "no longer valid", model: gated, codes: [code("c1", "bar", { validTo: "2026-11-19" })], given: "WINTER", expected: null },
    { case: "one use left", model: gated, codes: [code("c1", "bar", { maxRedemptions: 3, redemptions: 2 })], given: "WINTER", expected: "c1" },
    { case: "used up", model: gated, codes: [code("c1", "bar", { maxRedemptions: 3, redemptions: 3 })], given: "WINTER", expected: null },
    {
      case: "used up by this guest",
      model: gated,
      codes: [code("c1", "bar", { maxPerGuest: 1, guestRedemptions: 1 })],
      given: "WINTER",
      expected: null
    },
    {
      case: "a derived plan of a gated parent freezes the parent's",
      model: derived(gated, "percent", "-10", { id: "child" }),
      codes: [code("c1", "bar")],
      given: "WINTER",
      expected: "c1"
    },
    {
      case: "the nearest gated plan first",
      model: derived(gated, "percent", "-10", { id: "child", requiresPromoCode: true }),
      codes: [code("c1", "bar"), code("c2", "child")],
      given: "WINTER",
      expected: "c2"
    },
    {
      case: "the nearest gated plan with a redeemable code",
      model: derived(gated, "percent", "-10", { id: "child", requiresPromoCode: true }),
      codes: [code("c1", "bar"), code("c2", "child", { maxRedemptions: 1, redemptions: 1 })],
      given: "WINTER",
      expected: "c1"
    },
    {
      case: "an ungated parent's code is not frozen",
      model: derived(open, "percent", "-10", { id: "child", requiresPromoCode: true }),
      codes: [code("c1", "bar")],
      given: "WINTER",
      expected: null
    }
  ])("$case: $expected", ({ codes, expected, given, model }) => {
    expect(frozen(model, codes, given)).toBe(expected)
  })

  it("freezes only a redeemable code of the sent text, of a plan of the chain that requires one", () => {
    const chain = fc.tuple(fc.boolean(), fc.boolean()).map(([parentGated, childGated]) =>
      derived(plan({ id: "bar", requiresPromoCode: parentGated }), "percent", "-10", { id: "child", requiresPromoCode: childGated })
    )
    const codes = fc.array(
      fc.record({
        id: fc.uuid(),
        ratePlanId: fc.constantFrom("bar", "child", "other"),
        code: fc.constantFrom("WINTER", "SUMMER"),
        isActive: fc.boolean(),
        redemptions: fc.integer({ min: 0, max: 3 }),
        maxRedemptions: fc.constantFrom(undefined, 1, 3)
      }),
      { maxLength: 6 }
    )
    fc.assert(fc.property(chain, codes, fc.constantFrom("winter", "SUMMER", "AUTUMN"), (model, states, given) => {
      const found = frozenPromoCode({ today, promoCodes: states }, { model }, given)
      if (found === null) return
      const owner = [model, model.derivation?.parent].find((p) => p?.id === found.ratePlanId)
      expect(owner?.requiresPromoCode).toBe(true)
      expect(sameCode(given, found.code)).toBe(true)
      expect(isRedeemable(found, today)).toBe(true)
    }))
  })
})
