// The visibility rule as an offer applies it: for a stay, at the property's today, against its live promo codes;
// and which of its reasons an offer lists (the others hide the plan, so there is no offer to list them on).
import type { SalesContext } from "../../platform/ApiKey.js"
import type { IsoDate } from "../../quotes/dates.js"
import type { RatePlan, RoomType } from "../../quotes/model.js"
import type { StayQuery } from "../../quotes/stay.js"
import type { PromoCodeState } from "./promoCodes.js"
import { hidesPlan, planVisibility, type VisibilityReason } from "./visibility.js"

/** A reason an offer lists: any but those that hide the plan (`hidesPlan`). */
export type ListedReason = Exclude<VisibilityReason, "rate_plan_inactive" | "sales_context">

/** What the rule reads besides the request (a loaded pricing snapshot carries both). */
export interface VisibilitySource {
  /** The property's local date. */
  readonly today: IsoDate
  /** Live codes of the plan and its ancestors, with their redemption counts. */
  readonly promoCodes: ReadonlyArray<PromoCodeState>
}

/** The visibility rule for a plan, a room type and a stay, at the source's today. */
export const visibilityOf = (
  source: VisibilitySource,
  plan: { readonly model: RatePlan },
  roomTypeId: string,
  roomType: RoomType,
  stay: StayQuery,
  salesContext: SalesContext
): ReadonlyArray<VisibilityReason> =>
  planVisibility({
    plan: plan.model,
    roomTypeId,
    roomType,
    party: stay.party,
    checkIn: stay.checkIn,
    checkOut: stay.checkOut,
    today: source.today,
    salesContext,
    promoCode: stay.promoCode ?? null,
    promoCodes: source.promoCodes
  })

/** The reasons an offer lists, in the rule's order. */
export const listedReasons = (reasons: ReadonlyArray<VisibilityReason>): ReadonlyArray<ListedReason> =>
  reasons.filter((reason): reason is ListedReason => !hidesPlan(reason))
