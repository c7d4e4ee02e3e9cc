import { Money } from "@hotel/domain"
import type { CancelResult } from "@hotel/persistence/booking/Cancellations"
import type { ConfirmResult } from "@hotel/persistence/booking/Confirmations"
import type { HoldCreated as HoldRecord } from "@hotel/persistence/booking/Holds"
import type { HoldConfirmed, HoldCreated } from "@hotel/api/booking/Api"
import type { ReservationCancelled } from "@hotel/api/booking/Api"
import { presentBalances } from "@hotel/persistence/folios/BalanceView"
import { timestamp } from "@hotel/domain/common/Format"

export const presentHold = (hold: HoldRecord): typeof HoldCreated.Type => ({
  reservation_id: hold.reservationId,
  folio_id: hold.folioId,
  confirmation_code: hold.confirmationCode,
  hold_expires_at: timestamp(hold.holdExpiresAt),
  total: Money.format(hold.total, hold.currency),
  currency: hold.currency,
  status: "tentative"
})

/** The confirmed reservation with its balance figures, the same as `GET /reservations/{id}` shows. */
export const presentConfirmation = (result: ConfirmResult): typeof HoldConfirmed.Type => {
  const figures = presentBalances(result.lines, result.folioVoided, result.baseCurrency)
  return {
    reservation_id: result.reservationId,
    status: "confirmed",
    check_in_date: result.checkIn,
    check_out_date: result.checkOut,
    currency: result.currency,
    folio_balance: figures.balance,
    balances: figures.balances,
    already_confirmed: result.alreadyConfirmed
  }
}

export const presentCancellation = (result: CancelResult): typeof ReservationCancelled.Type => ({
  reservation_id: result.reservationId,
  status: "cancelled",
  refund_due_minor: Number(result.refundDueMinor)
})
