// The promo code a hold freezes on its reservation: what counts as a redemption against the code's caps.
import type { RatePlan } from "../quotes/model.js"
import { type PromoCodeState, redeemableCode } from "../rates/visibility/promoCodes.js"
import type { VisibilitySource } from "../rates/visibility/offerVisibility.js"

/**
 * The redeemable code sent for the nearest plan of the chain that requires one (the booked plan first), or
 * null. A code sent for a chain that requires none is ignored and not recorded, so it is not counted as a
 * redemption either (the visibility rule ignores it too).
 */
export const frozenPromoCode = (
  source: VisibilitySource,
  plan: { readonly model: RatePlan },
  given: string | null
): PromoCodeState | null => {
  if (given === null || given === "") return null
  for (let p: RatePlan | null | undefined = plan.model; p != null; p = p.derivation?.parent) {
    if (!p.requiresPromoCode) continue
    const code = redeemableCode(source.promoCodes, p.id, given, source.today)
    if (code !== undefined) return code
  }
  return null
}
