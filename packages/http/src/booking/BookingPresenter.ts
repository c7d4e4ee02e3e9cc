import { Booking, Money } from "@hotel/domain"
import type { BookingCancelled as CancelRecord, BookingConfirmed as ConfirmRecord, BookingCreated as CreatedRecord } from "@hotel/persistence/booking/bookings/requests"
import type { BookingRecord } from "@hotel/persistence/booking/BookingReads"
import type { BookingCancelled, BookingConfirmed, BookingCreated, BookingRead } from "@hotel/api/booking/Api"
import { presentBalances } from "@hotel/persistence/folios/BalanceView"
import { presentReservation } from "@hotel/persistence/booking/ReservationView"
import { presentHold } from "./HoldPresenter.js"
import { timestamp } from "@hotel/domain/common/Format"

// A booking of several rooms on the wire. Each room is presented as its hold, its confirm or its reservation
// read would present it alone.

export const presentBookingCreated = (created: CreatedRecord): typeof BookingCreated.Type => ({
  booking_id: created.bookingId,
  hold_expires_at: timestamp(created.holdExpiresAt),
  currency: created.currency,
  total: Money.format(created.total, created.currency),
  reservations: created.reservations.map((hold) => {
    const { confirmation_code, currency, folio_id, reservation_id, status, total } = presentHold(hold)
    return { reservation_id, folio_id, confirmation_code, total, currency, status }
  })
})

export const presentBooking = (record: BookingRecord): typeof BookingRead.Type => {
  const reservations = record.reservations.map(presentReservation)
  return {
    id: record.booking.id,
    guest_id: record.booking.guest_id,
    check_in: record.stay.checkIn,
    check_out: record.stay.checkOut,
    currency: record.booking.currency,
    total: Money.format(record.stay.total, record.booking.currency),
    created_at: timestamp(record.booking.created_at),
    reservations
  }
}

/** The booking's balance is over every folio's lines together, as one folio's would be. */
export const presentBookingConfirmed = (confirmed: ConfirmRecord): typeof BookingConfirmed.Type => {
  const lines = confirmed.reservations.flatMap((r) => r.lines)
  const voided = confirmed.reservations.some((r) => r.folioVoided)
  const baseCurrency = confirmed.reservations[0]?.baseCurrency ?? confirmed.currency
  const figures = presentBalances(lines, voided, baseCurrency)
  return {
    booking_id: confirmed.bookingId,
    status: "confirmed",
    currency: confirmed.currency,
    total: Money.format(confirmed.total, confirmed.currency),
    folio_balance: figures.balance,
    balances: figures.balances,
    already_confirmed: confirmed.alreadyConfirmed,
    reservations: confirmed.reservations.map((r) => ({ reservation_id: r.reservationId, status: "confirmed" }))
  }
}

export const presentBookingCancelled = (cancelled: CancelRecord): typeof BookingCancelled.Type => {
  const reservations = cancelled.reservations.map((r) => ({
    reservation_id: r.reservationId,
    status: r.status as Booking.ReservationStatus,
    refund_due_minor: Number(r.cancelled?.refundDueMinor ?? 0n)
  }))
  return {
    booking_id: cancelled.bookingId,
    refund_due_minor: reservations.reduce((sum, r) => sum + r.refund_due_minor, 0),
    reservations
  }
}
