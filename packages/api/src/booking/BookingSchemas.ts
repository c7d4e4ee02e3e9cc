import * as Schema from "effect/Schema"
import { CurrencyCode, DateOnly, Id, Money, Timestamp } from "../common/Common.js"
import { BalanceEntry, Reservation, ReservationStatus } from "./ReservationSchemas.js"

// `POST /bookings` and what follows it: several rooms for one guest and one stay, held together, confirmed
// with one payment and cancelled together. Each room is a hold; each reservation reads as any other.

/** The booking's own id (the glossary's `booking_id` is a reservation's link to it). */
const BookingId = Id.annotate({ description: "The booking" })

export const BookingCreated = Schema.Struct({
  booking_id: BookingId,
  /** When every room's hold lapses (they lapse together). */
  hold_expires_at: Timestamp,
  currency: CurrencyCode,
  /** The sum of the rooms' totals. */
  total: Money,
  reservations: Schema.Array(Schema.Struct({
    reservation_id: Id,
    folio_id: Id,
    confirmation_code: Schema.String,
    total: Money,
    currency: CurrencyCode,
    status: Schema.Literal("tentative")
  }))
}).annotate({ identifier: "BookingCreated" })

export const BookingRead = Schema.Struct({
  id: BookingId,
  guest_id: Id,
  check_in: DateOnly,
  check_out: DateOnly,
  currency: CurrencyCode,
  total: Money,
  created_at: Timestamp,
  reservations: Schema.Array(Reservation)
}).annotate({ identifier: "Booking" })

export const BookingConfirmed = Schema.Struct({
  booking_id: BookingId,
  status: Schema.Literal("confirmed"),
  currency: CurrencyCode,
  total: Money,
  /** Base-currency estimate over the booking's folios; null when a line's currency has no configured rate. */
  folio_balance: Schema.NullOr(Money),
  /** The per-currency truth behind `folio_balance`, over the booking's folios together. */
  balances: Schema.Array(BalanceEntry),
  already_confirmed: Schema.Boolean,
  reservations: Schema.Array(Schema.Struct({ reservation_id: Id, status: ReservationStatus }))
}).annotate({ identifier: "BookingConfirmed" })

export const BookingCancelled = Schema.Struct({
  booking_id: BookingId,
  /** The sum of the reservations' refund obligations, in minor units of the booking's currency. */
  refund_due_minor: Schema.Int,
  reservations: Schema.Array(Schema.Struct({ reservation_id: Id, status: ReservationStatus, refund_due_minor: Schema.Int }))
}).annotate({ identifier: "BookingCancelled" })
