// The one writer of a stay's own columns: the reservation's room type, plan, dates, party, money, the promo code
// and cancellation policy frozen on it, its block and the overbooking each night was counted under, and its
// accommodation's. A hold (and each room of a booking, and a pickup) inserts them (./holds/writes.ts), a change
// updates them (../changes/writes.ts), from the same `Booking.StayRecord`.
import type * as SqlClient from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"
import { type Booking, Money, Pricing } from "@hotel/domain"

type Column = readonly [name: string, value: Fragment]

const policyJson = (policy: ReadonlyArray<Pricing.CancellationTier>) =>
  JSON.stringify(policy.map((tier) => ({ days_before_arrival: tier.daysBeforeArrival, refund_percent: tier.refundPercent })))

/** The reservation's columns a stay decides, each with its value (cast where Postgres cannot infer it). */
const reservationColumns = (sql: SqlClient.SqlClient, record: Booking.StayRecord): ReadonlyArray<Column> => {
  const { quote, stay } = record
  const childAges = stay.party.childAges ?? null
  return [
    ["room_type_id", sql`${stay.roomTypeId}::uuid`],
    ["rate_plan_id", sql`${stay.ratePlanId}::uuid`],
    ["check_in_date", sql`${stay.checkIn}::date`],
    ["check_out_date", sql`${stay.checkOut}::date`],
    ["adults", sql`${stay.party.adults}::int`],
    ["children", sql`${Pricing.childCount(stay.party)}::int`],
    ["child_ages", sql`${childAges === null ? null : [...childAges]}::integer[]`],
    ["currency", sql`${quote.currency}`],
    ["nightly_rate", sql`${Money.toDb(quote.nightlyRate)}::numeric`],
    ["total", sql`${Money.toDb(quote.total)}::numeric`],
    ["room_revenue", sql`${Money.toDb(quote.roomRevenue)}::numeric`],
    ["promo_code_id", sql`${record.promo?.id ?? null}::uuid`],
    ["promo_code", sql`${record.promo?.code ?? null}`],
    ["block_id", sql`${record.blockId}::uuid`],
    ["held_overbooking", sql`${[...record.heldOverbooking]}::integer[]`],
    ...(record.policy === null ? [] : [["cancellation_policy", sql`${policyJson(record.policy)}::jsonb`] as const])
  ]
}

/** The accommodation's columns a stay decides. */
const accommodationColumns = (sql: SqlClient.SqlClient, record: Booking.StayRecord): ReadonlyArray<Column> => [
  ["room_type_id", sql`${record.stay.roomTypeId}::uuid`],
  ["check_in_date", sql`${record.stay.checkIn}::date`],
  ["check_out_date", sql`${record.stay.checkOut}::date`],
  ["nightly_rate", sql`${Money.toDb(record.quote.nightlyRate)}::numeric`]
]

/** `(a, b, …)` and `(x, y, …)` of an INSERT: the stay's columns after `extra` (the writer's own). */
const inserted = (sql: SqlClient.SqlClient, columns: ReadonlyArray<Column>, extra: ReadonlyArray<Column>) => {
  const all = [...extra, ...columns]
  return {
    names: sql.literal(all.map(([name]) => name).join(", ")),
    values: sql.csv(all.map(([, value]) => value))
  }
}

/** `a = x, b = y, …` of an UPDATE: the stay's columns and `extra`. */
const assigned = (sql: SqlClient.SqlClient, columns: ReadonlyArray<Column>, extra: ReadonlyArray<Column>) =>
  sql.csv([...columns, ...extra].map(([name, value]) => sql`${sql(name)} = ${value}`))

export const insertedReservation = (sql: SqlClient.SqlClient, record: Booking.StayRecord, extra: ReadonlyArray<Column>) =>
  inserted(sql, reservationColumns(sql, record), extra)

export const insertedAccommodation = (sql: SqlClient.SqlClient, record: Booking.StayRecord, extra: ReadonlyArray<Column>) =>
  inserted(sql, accommodationColumns(sql, record), extra)

export const assignedReservation = (sql: SqlClient.SqlClient, record: Booking.StayRecord, extra: ReadonlyArray<Column>) =>
  assigned(sql, reservationColumns(sql, record), extra)

export const assignedAccommodation = (sql: SqlClient.SqlClient, record: Booking.StayRecord) =>
  assigned(sql, accommodationColumns(sql, record), [])
