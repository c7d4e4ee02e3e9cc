import type { ReservationStateColumns, StayColumns } from "../booking/ReservationQueries.js"
import type * as SqlClient from "effect/sql/SqlClient"
import { Cancellation, type Changes, isUuid, Money, ReservationNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { lockReservationThen } from "../booking/ReservationLock.js"
import { paidLinesColumn, type PaidLineJson, paidTowards } from "../folios/FolioLines.js"
import { toPolicy } from "../quotes/PricingInputs.js"

// What a change of a reservation (and its quote) is decided on, in one statement: the reservation's terms and
// status, its folio, the policies its refund percent comes from, its folio's lines (what was paid towards the
// stay is the domain's rule over them, `Folio.paidTowardsStay`), the loyalty points it earned,
// the stay's current priced lines (those no reversal names) and its add-ons. The change reads it right after
// locking the reservation row (`lockReservationThen`), so it sees what the last holder of the lock committed.

type PolicyJson = ReadonlyArray<{ readonly days_before_arrival: number; readonly refund_percent: number }>

interface LineJson {
  readonly id: string
  readonly kind: string
  readonly description: string
  readonly amount: string
  readonly revenue_category: string | null
  readonly service_id: string | null
  readonly quantity: number | null
  readonly night: string | null
  readonly currency: string
  readonly exchange_rate: string | null
}

export interface AddOnJson {
  readonly service_id: string
  readonly quantity: number
  readonly modifier_values: Readonly<Record<string, unknown>>
}

export interface ChangeFactsRow extends ReservationStateColumns, StayColumns {
  readonly promo_code: string | null
  readonly special_notes: string | null
  readonly currency: string
  readonly total: string
  readonly folio_id: string
  /** The booking the reservation is a room of (its rooms price in one currency), or null. */
  readonly booking_id: string | null
  /** The block the reservation picked up from, or null. */
  readonly block_id: string | null
  /** The overbooking each night of its stay was sold under (migration 0015; null when not recorded). */
  readonly held_overbooking: ReadonlyArray<number> | null
  readonly frozen_policy: PolicyJson | null
  readonly plan_policy: PolicyJson | null
  readonly property_policy: PolicyJson
  readonly timezone: string
  readonly base_currency: string
  readonly loyalty_points_per_usd: number
  /** The folio's lines, from which what was paid towards the stay is decided. */
  readonly paid_lines: ReadonlyArray<PaidLineJson>
  readonly net_earned: number
  readonly lines: ReadonlyArray<LineJson>
  readonly add_ons: ReadonlyArray<AddOnJson>
}

/** The facts: the row (what the writes need) and the reservation as the domain decides on it. */
export interface ChangeFacts {
  readonly row: ChangeFactsRow
  readonly reservation: Changes.ChangedReservation
}

const readFacts = (sql: SqlClient.SqlClient, propertyId: string, id: string) =>
  sql<ChangeFactsRow>`
    SELECT r.id, r.status, r.hold_expires_at, r.cancellation_reason, r.guest_id, r.room_type_id, r.rate_plan_id,
           r.check_in_date, r.check_out_date, r.adults, r.children, r.child_ages, r.promo_code, r.special_notes,
           r.currency, r.total::text AS total, f.id AS folio_id, r.booking_id, r.block_id, r.held_overbooking,
           r.cancellation_policy AS frozen_policy, rp.cancellation_policy AS plan_policy,
           p.cancellation_policy AS property_policy, p.timezone, p.base_currency, p.loyalty_points_per_usd,
           ${paidLinesColumn(sql)} AS paid_lines,
           (SELECT COALESCE(sum(points), 0)::int FROM loyalty_ledger
            WHERE reservation_id = r.id AND kind IN ('earn', 'reversal', 'adjustment')) AS net_earned,
           (SELECT COALESCE(json_agg(json_build_object(
                     'id', l.id, 'kind', l.kind, 'description', l.description, 'amount', l.amount::text,
                     'revenue_category', l.revenue_category, 'service_id', l.service_id, 'quantity', l.quantity,
                     'night', to_char(l.night, 'YYYY-MM-DD'), 'currency', l.currency,
                     'exchange_rate', l.exchange_rate::text) ORDER BY l.position), '[]'::json)
            FROM folio_lines l
            WHERE l.folio_id = f.id AND l.kind IN ('room', 'tax', 'addon', 'addon_tax')
              AND NOT EXISTS (SELECT 1 FROM folio_lines x WHERE x.applies_to_line_id = l.id AND x.kind = 'reversal'))
             AS lines,
           (SELECT COALESCE(json_agg(json_build_object(
                     'service_id', a.service_id, 'quantity', a.quantity, 'modifier_values', a.modifier_values)
                     ORDER BY a.position), '[]'::json)
            FROM reservation_add_ons a WHERE a.reservation_id = r.id) AS add_ons
    FROM reservations r
    JOIN folios f ON f.reservation_id = r.id
    JOIN rate_plans rp ON rp.id = r.rate_plan_id
    JOIN properties p ON p.id = r.property_id
    WHERE r.property_id = ${propertyId} AND r.id = ${id}`

const toReservation = (row: ChangeFactsRow): Changes.ChangedReservation => ({
  status: row.status,
  holdExpiresAt: row.hold_expires_at,
  cancellationReason: row.cancellation_reason,
  currency: row.currency,
  total: Money.fromDb(row.total),
  paid: paidTowards(row.paid_lines, row.currency),
  inBooking: row.booking_id !== null,
  policy: toPolicy(Cancellation.tiersInForce(row.frozen_policy, row.plan_policy, row.property_policy)),
  timeZone: row.timezone,
  addOns: row.add_ons.map((addOn) => ({
    serviceId: addOn.service_id,
    quantity: addOn.quantity,
    modifierValues: addOn.modifier_values
  })),
  terms: {
    roomTypeId: row.room_type_id,
    ratePlanId: row.rate_plan_id,
    checkIn: row.check_in_date,
    checkOut: row.check_out_date,
    adults: row.adults,
    children: row.children,
    childAges: row.child_ages,
    promoCode: row.promo_code,
    specialNotes: row.special_notes
  },
  lines: row.lines.map((line) => ({
    id: line.id,
    kind: line.kind,
    description: line.description,
    amount: Money.fromDb(line.amount),
    revenueCategory: line.revenue_category,
    serviceId: line.service_id,
    quantity: line.quantity,
    night: line.night
  }))
})

const toFacts = (row: ChangeFactsRow): ChangeFacts => ({ row, reservation: toReservation(row) })

/**
 * The facts of the property's reservation `id`; with `"lock"` the reservation row is locked first, in a
 * statement of its own. 404 `reservation_not_found` for no such reservation.
 */
export const changeFacts = (sql: SqlClient.SqlClient, propertyId: string, id: string, lock: "lock" | "read") =>
  Effect.gen(function*() {
    const notFound = new ReservationNotFound({ message: `No reservation ${id}` })
    if (!isUuid(id)) return yield* notFound
    const read = readFacts(sql, propertyId, id)
    const [row] = yield* (lock === "lock" ? lockReservationThen(sql, propertyId, id, read) : read)
    if (row === undefined) return yield* notFound
    return toFacts(row)
  })
