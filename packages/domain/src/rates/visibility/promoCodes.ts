// Promo codes gating a plan. Redemption counts are inputs: the caller counts
// live redemptions (holds not yet expired, confirmed or later) inside the same transaction that books, so
// the caps hold under concurrency; this module only decides.
import { inWindow, type IsoDate } from "../../quotes/dates.js"
import type { Opt } from "../../quotes/model.js"

export interface PromoCodeState {
  readonly id: string
  readonly ratePlanId: string
  /** Stored in upper case. */
  readonly code: string
  readonly isActive: boolean
  readonly deleted?: Opt<boolean>
  readonly validFrom?: Opt<IsoDate>
  readonly validTo?: Opt<IsoDate>
  /** Omitted means unlimited. */
  readonly maxRedemptions?: Opt<number>
  readonly maxPerGuest?: Opt<number>
  /** Live redemptions of this code, all guests. */
  readonly redemptions: number
  /** Live redemptions of this code by the booking guest; omitted when no guest is known (a quote). */
  readonly guestRedemptions?: Opt<number>
}

/** Codes are matched case-insensitively (stored upper case). */
export const sameCode = (given: string, stored: string): boolean => given.toUpperCase() === stored.toUpperCase()

/** Whether a code can be redeemed today: active, not deleted, inside its window, under both caps. */
export const isRedeemable = (code: PromoCodeState, today: IsoDate): boolean =>
  code.isActive &&
  code.deleted !== true &&
  inWindow(today, code.validFrom, code.validTo) &&
  (code.maxRedemptions == null || code.redemptions < code.maxRedemptions) &&
  (code.maxPerGuest == null || code.guestRedemptions == null || code.guestRedemptions < code.maxPerGuest)

/** The plan's code the request may book with, if any (the hold freezes its id). */
export const redeemableCode = (
  codes: ReadonlyArray<PromoCodeState>,
  ratePlanId: string,
  given: string,
  today: IsoDate
): PromoCodeState | undefined =>
  codes.find((code) => code.ratePlanId === ratePlanId && sameCode(given, code.code) && isRedeemable(code, today))
