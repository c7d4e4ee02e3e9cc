import type { CancellationQuoteResult } from "@hotel/persistence/booking/CancellationQuote"
import type { RedemptionResult } from "@hotel/persistence/guests/Loyalty"
import type { StayResult } from "@hotel/persistence/stays/StayTransitions"
import type { CancellationQuote } from "@hotel/api/booking/Api"
import type { RedemptionCreated } from "@hotel/api/guests/Api"
import type { StayTransitioned } from "@hotel/api/stays/Api"
import { timestamp } from "@hotel/domain/common/Format"

export const presentStay = (result: StayResult): typeof StayTransitioned.Type => ({
  reservation_id: result.reservationId,
  status: result.status,
  room_id: result.roomId
})

export const presentRedemption = (result: RedemptionResult): typeof RedemptionCreated.Type => ({
  redemption_id: result.redemptionId,
  guest_id: result.guestId,
  reservation_id: result.reservationId,
  points: result.points,
  loyalty_points: result.balance
})

export const presentCancellationQuote = (result: CancellationQuoteResult): typeof CancellationQuote.Type => ({
  reservation_id: result.reservationId,
  refund_due_minor: Number(result.refundDueMinor),
  currency: result.currency,
  refund_percent: result.refundPercent,
  tier_until: result.tierUntil,
  quoted_at: timestamp(result.quotedAt)
})
