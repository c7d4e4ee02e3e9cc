// What a booking of several rooms is asked for and what it answers (the services are ../Bookings.ts,
// ../BookingConfirmations.ts, ../BookingCancellations.ts and ../BookingReads.ts).
import type { BookingNotFound, CurrencyMismatch, Money, NotCancellable } from "@hotel/domain"
import type { CancelResult } from "../Cancellations.js"
import type { ConfirmError, ConfirmResult } from "../confirmations/requests.js"
import type { HoldCreated, HoldError, HoldRequest } from "../holds/requests.js"

/** One room: a hold's fields but the guest and the stay, which are the booking's. */
export type BookingRoomRequest = Omit<HoldRequest, "guestId" | "checkIn" | "checkOut">

export interface BookingRequest {
  readonly guestId: string
  readonly checkIn: string
  readonly checkOut: string
  readonly rooms: ReadonlyArray<BookingRoomRequest>
}

export interface BookingCreated {
  readonly bookingId: string
  readonly holdExpiresAt: Date
  readonly currency: string
  readonly total: Money.Amount
  /** One hold per room, in the order of `rooms`. */
  readonly reservations: ReadonlyArray<HoldCreated>
}

export type BookingError = HoldError | CurrencyMismatch

export interface BookingConfirmed {
  readonly bookingId: string
  readonly currency: string
  readonly total: Money.Amount
  readonly alreadyConfirmed: boolean
  /** Each reservation's confirm, in the order of the booking's rooms. */
  readonly reservations: ReadonlyArray<ConfirmResult>
}

export type BookingConfirmError = Exclude<ConfirmError, { readonly _tag: "ReservationNotFound" }> | BookingNotFound

export interface BookingCancelled {
  readonly bookingId: string
  /** Every reservation of the booking in room order: its status after the cancel, and what this cancel owes. */
  readonly reservations: ReadonlyArray<{
    readonly reservationId: string
    readonly status: string
    readonly cancelled: CancelResult | null
  }>
}

export type BookingCancelError = BookingNotFound | NotCancellable
