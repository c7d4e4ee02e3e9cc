// The reservation as reads, events and bookings present it (`GET /reservations/{id}`, list items).
import * as Schema from "effect/Schema"
import { CurrencyCode, DateOnly, Id, Money, Timestamp } from "../common/Common.js"

export const ReservationStatus = Schema.Literals(["tentative", "confirmed", "checked_in", "checked_out", "cancelled", "no_show"])

export const BalanceEntry = Schema.Struct({
  currency: CurrencyCode,
  charges: Money,
  payments: Money,
  balance: Money
})

export const Accommodation = Schema.Struct({
  id: Id,
  room_id: Schema.NullOr(Id),
  room_type_id: Id,
  check_in_date: DateOnly,
  check_out_date: DateOnly,
  status: Schema.String,
  nightly_rate: Money
})

const listItemFields = {
  id: Id,
  status: ReservationStatus,
  guest_id: Id,
  check_in_date: DateOnly,
  check_out_date: DateOnly,
  room_type_id: Id,
  room_type_name: Schema.String,
  nightly_rate: Money,
  currency: CurrencyCode,
  folio_balance: Schema.NullOr(Money),
  balances: Schema.Array(BalanceEntry),
  /** The booking the reservation is a room of; null for a hold of its own. */
  booking_id: Schema.NullOr(Id)
}

export const ReservationListItem = Schema.Struct(listItemFields).annotate({ identifier: "ReservationListItem" })

export const Reservation = Schema.Struct({
  ...listItemFields,
  confirmation_code: Schema.String,
  rate_plan_id: Id,
  adults: Schema.Int,
  children: Schema.Int,
  child_ages: Schema.NullOr(Schema.Array(Schema.Int)),
  number_of_guests: Schema.Int,
  bed_config: Schema.NullOr(Schema.String),
  booking_source: Schema.String,
  special_notes: Schema.NullOr(Schema.String),
  promo_code: Schema.NullOr(Schema.String),
  total: Money,
  hold_expires_at: Schema.NullOr(Timestamp),
  cancellation_reason: Schema.NullOr(Schema.String),
  folio_id: Id,
  /** The block the reservation picked up from; null for an ordinary hold. */
  block_id: Schema.NullOr(Id),
  accommodations: Schema.Array(Accommodation),
  created_at: Timestamp
}).annotate({ identifier: "Reservation" })
