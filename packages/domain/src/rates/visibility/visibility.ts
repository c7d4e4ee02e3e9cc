// Who may book what: the reasons a plan is not sellable for a request; none means sellable.
//
// - `rate_plan_inactive` (missing active plan, deleted, or another room type) and `sales_context` hide the
//   plan entirely (`rate_plan_not_found`; not listed by `/rates` even with include_unavailable), see
//   `hidesPlan`. The others are the `reasons` of an unbookable offer.
// - A derived plan also passes every one of its parent's rules, recursively — all of them, the parent's
//   activity, sales context and promo-code gate included (a gated parent needs the same code text on the
//   child's request; codes are per plan, so the same text may exist on both). Reasons are deduplicated and
//   listed in the fixed order of `REASONS`.
// - Promo codes are checked only on plans with `requiresPromoCode`; a code sent to an ungated plan is
//   ignored, so `/rates?promo_code=X` still lists the public plans.
import type { SalesContext } from "../../platform/ApiKey.js"
import { daysBetween, inWindow, type IsoDate, nightsOf } from "../../quotes/dates.js"
import { partySize } from "../../quotes/guests.js"
import type { Opt, Party, RatePlan, RoomType } from "../../quotes/model.js"
import { hasNightsIn, nightRulesFor } from "../../quotes/nightRules.js"
import { type PromoCodeState, redeemableCode } from "./promoCodes.js"
import { coversSomeNight, stayInWindow } from "./stayRange.js"

export const REASONS = [
  "rate_plan_inactive",
  "sales_context",
  "party_too_large",
  "booking_window",
  "stay_window",
  "min_stay",
  "max_stay",
  "closed_to_arrival",
  "closed_to_departure",
  "stop_sell",
  "promo_code_required",
  "promo_code_invalid"
] as const

export type VisibilityReason = typeof REASONS[number]

export interface VisibilityRequest {
  readonly plan: RatePlan
  /** The room type requested; the plan must price it. */
  readonly roomTypeId: string
  readonly roomType: RoomType
  readonly party: Party
  readonly checkIn: IsoDate
  readonly checkOut: IsoDate
  /** The property's local date (see localToday). */
  readonly today: IsoDate
  readonly salesContext: SalesContext
  readonly promoCode?: Opt<string>
  /** Codes of the plan and of its ancestors, with their live redemption counts. */
  readonly promoCodes?: Opt<ReadonlyArray<PromoCodeState>>
}

/** Reasons that make the plan not exist for this request (404 `rate_plan_not_found`, not listed). */
export const hidesPlan = (reason: VisibilityReason): boolean =>
  reason === "rate_plan_inactive" || reason === "sales_context"

const salesContextAllows = (plan: RatePlan, context: SalesContext): boolean =>
  context === "back_office" || (context === "booking_engine" ? plan.activeForBookingEngine : plan.activeForChannels)

/**
 * Some night of the stay is stop-sell. Without an override on the stay's nights the covering intervals decide
 * (compared by range, no night walked: a quote asks it of every plan); with one, night by night.
 */
const stopSellOnSomeNight = (plan: RatePlan, stay: { readonly checkIn: IsoDate; readonly checkOut: IsoDate }): boolean =>
  hasNightsIn(plan, stay.checkIn, stay.checkOut)
    ? nightsOf(stay.checkIn, stay.checkOut).some((date) => nightRulesFor(plan, date).stopSell)
    : plan.intervals.some((interval) => interval.stopSell === true && coversSomeNight(interval, stay))

/** The reasons of one plan, ignoring its parent. */
const ownReasons = (plan: RatePlan, request: VisibilityRequest): Array<VisibilityReason> => {
  const reasons: Array<VisibilityReason> = []
  const length = daysBetween(request.checkIn, request.checkOut)
  if (!plan.isActive || plan.deleted || plan.roomTypeId !== request.roomTypeId) reasons.push("rate_plan_inactive")
  if (!salesContextAllows(plan, request.salesContext)) reasons.push("sales_context")
  if (!inWindow(request.today, plan.bookingWindowStart, plan.bookingWindowEnd)) reasons.push("booking_window")
  if (!stayInWindow(request, length, plan.stayWindowStart, plan.stayWindowEnd)) reasons.push("stay_window")

  // The stay rules of the arrival night, the departure night and every night: overrides above intervals.
  const arrival = nightRulesFor(plan, request.checkIn)
  const minStays = [plan.minLos, arrival.minStay].filter((n): n is number => n != null)
  const maxStays = [plan.maxLos, arrival.maxStay].filter((n): n is number => n != null)
  if (minStays.some((min) => length < min)) reasons.push("min_stay")
  if (maxStays.some((max) => length > max)) reasons.push("max_stay")
  if (arrival.closedToArrival) reasons.push("closed_to_arrival")
  // Departure is the check-out date read as a night (as an interval's dates are).
  if (nightRulesFor(plan, request.checkOut).closedToDeparture) reasons.push("closed_to_departure")
  if (stopSellOnSomeNight(plan, request)) reasons.push("stop_sell")

  if (plan.requiresPromoCode) {
    const given = request.promoCode ?? ""
    if (given === "") reasons.push("promo_code_required")
    else if (redeemableCode(request.promoCodes ?? [], plan.id, given, request.today) === undefined) {
      reasons.push("promo_code_invalid")
    }
  }
  return reasons
}

/** Every reason the plan (and its ancestors) cannot be booked for the request; empty = sellable. */
export const planVisibility = (request: VisibilityRequest): ReadonlyArray<VisibilityReason> => {
  const found = new Set<VisibilityReason>()
  if (partySize(request.party) > request.roomType.maxOccupancy) found.add("party_too_large")
  for (let plan: RatePlan | undefined = request.plan; plan !== undefined; plan = plan.derivation?.parent) {
    for (const reason of ownReasons(plan, request)) found.add(reason)
  }
  return REASONS.filter((reason) => found.has(reason))
}
