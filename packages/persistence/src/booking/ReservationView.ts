import { money, timestamp, timestampOrNull } from "@hotel/domain/common/Format"
import { formatBalances } from "../folios/BalanceView.js"
import type { ReservationRecord } from "./ReservationReads.js"

// A reservation as `GET /reservations/{id}` (and the list) writes it, and as its events carry it: the one
// rendering the response, the event's data and the entity tag share (the HTTP schemas check its shape).

export const presentListItem = (record: ReservationRecord) => {
  const row = record.reservation
  const figures = formatBalances(record.balances, record.baseCurrency)
  return {
    id: row.id,
    status: row.status,
    guest_id: row.guest_id,
    check_in_date: row.check_in_date,
    check_out_date: row.check_out_date,
    room_type_id: row.room_type_id,
    room_type_name: row.room_type_name,
    nightly_rate: money(row.nightly_rate, row.currency),
    currency: row.currency,
    folio_balance: figures.balance,
    balances: figures.balances,
    booking_id: row.booking_id
  }
}

/**
 * The list item's fields, then the rest, added to the list item itself: on Node 20 a spread followed by
 * properties the spread object lacks costs about a microsecond a property (see scripts/bench/README.md), and
 * this runs for every read of a reservation and every event that carries one.
 */
export const presentReservation = (record: ReservationRecord) => {
  const row = record.reservation
  return Object.assign(presentListItem(record), {
    confirmation_code: row.confirmation_code,
    rate_plan_id: row.rate_plan_id,
    adults: row.adults,
    children: row.children,
    child_ages: row.child_ages,
    number_of_guests: row.adults + row.children,
    bed_config: row.bed_config,
    booking_source: row.booking_source,
    special_notes: row.special_notes,
    promo_code: row.promo_code,
    total: money(row.total, row.currency),
    hold_expires_at: timestampOrNull(row.hold_expires_at),
    cancellation_reason: row.cancellation_reason,
    folio_id: row.folio_id,
    block_id: row.block_id,
    accommodations: record.accommodations.map((a) => ({
      id: a.id,
      room_id: a.room_id,
      room_type_id: a.room_type_id,
      check_in_date: a.check_in_date,
      check_out_date: a.check_out_date,
      status: a.status,
      nightly_rate: money(a.nightly_rate, row.currency)
    })),
    created_at: timestamp(row.created_at)
  })
}

/** A reservation as `GET` writes it. */
export type ReservationView = ReturnType<typeof presentReservation>
