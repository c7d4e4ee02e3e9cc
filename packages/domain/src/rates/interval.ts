// Seasonal intervals: request bodies and rules. An interval covers nights
// from `start_date` up to the night before `end_date`; two intervals of a plan overlap when they share a night.
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { all, bounds, type Check, fail, money, moneyOrNull, nights, ok, percent } from "./checks.js"
import { BoolField, DateField, DecimalField, int, nullable, optional, text } from "./fields.js"
import { keep, orNull } from "./merge.js"

const Name = text(1, 100)
const Stay = int(1, 366)

export const weekdayPriceKeys = [
  "price_mon",
  "price_tue",
  "price_wed",
  "price_thu",
  "price_fri",
  "price_sat",
  "price_sun"
] as const
export type WeekdayPriceKey = typeof weekdayPriceKeys[number]

/** The fields both bodies accept the same way, in the contract's order (decode errors follow it). */
const settableFields = {
  price_mon: nullable(DecimalField),
  price_tue: nullable(DecimalField),
  price_wed: nullable(DecimalField),
  price_thu: nullable(DecimalField),
  price_fri: nullable(DecimalField),
  price_sat: nullable(DecimalField),
  price_sun: nullable(DecimalField),
  min_stay: nullable(Stay),
  max_stay: nullable(Stay),
  closed_to_arrival: optional(BoolField),
  closed_to_departure: optional(BoolField),
  stop_sell: optional(BoolField),
  extra_guest_charge: optional(DecimalField),
  single_guest_discount: optional(DecimalField)
}

/** `POST /rate-plans/{id}/intervals`. */
export const IntervalCreate = Schema.Struct({
  name: Name,
  start_date: DateField,
  end_date: DateField,
  ...settableFields
}).annotate({ identifier: "IntervalCreate" })
export type IntervalCreate = typeof IntervalCreate.Type

/** `PATCH /intervals/{id}`: any field; `null` clears a weekday price or a stay rule. */
export const IntervalPatch = Schema.Struct({
  name: optional(Name),
  start_date: optional(DateField),
  end_date: optional(DateField),
  ...settableFields
}).annotate({ identifier: "IntervalPatch" })
export type IntervalPatch = typeof IntervalPatch.Type

/** Every writable field of an interval as stored (money as decimal text). */
export interface IntervalFields {
  readonly name: string
  readonly start_date: string
  readonly end_date: string
  readonly price_mon: string | null
  readonly price_tue: string | null
  readonly price_wed: string | null
  readonly price_thu: string | null
  readonly price_fri: string | null
  readonly price_sat: string | null
  readonly price_sun: string | null
  readonly min_stay: number | null
  readonly max_stay: number | null
  readonly closed_to_arrival: boolean
  readonly closed_to_departure: boolean
  readonly stop_sell: boolean
  readonly extra_guest_charge: string
  readonly single_guest_discount: string
}

/** What the rules need to know of the interval's plan. */
export interface IntervalPlan {
  readonly currency: string
  readonly single_guest_discount_type: "fixed" | "percent"
  readonly derived: boolean
}

export const fieldsFromCreate = (input: IntervalCreate): IntervalFields => ({
  name: input.name,
  start_date: input.start_date,
  end_date: input.end_date,
  price_mon: orNull(input.price_mon),
  price_tue: orNull(input.price_tue),
  price_wed: orNull(input.price_wed),
  price_thu: orNull(input.price_thu),
  price_fri: orNull(input.price_fri),
  price_sat: orNull(input.price_sat),
  price_sun: orNull(input.price_sun),
  min_stay: orNull(input.min_stay),
  max_stay: orNull(input.max_stay),
  closed_to_arrival: input.closed_to_arrival ?? false,
  closed_to_departure: input.closed_to_departure ?? false,
  stop_sell: input.stop_sell ?? false,
  extra_guest_charge: input.extra_guest_charge ?? "0",
  single_guest_discount: input.single_guest_discount ?? "0"
})

export const fieldsFromPatch = (patch: IntervalPatch, stored: IntervalFields): IntervalFields => ({
  name: keep(patch.name, stored.name),
  start_date: keep(patch.start_date, stored.start_date),
  end_date: keep(patch.end_date, stored.end_date),
  price_mon: keep(patch.price_mon, stored.price_mon),
  price_tue: keep(patch.price_tue, stored.price_tue),
  price_wed: keep(patch.price_wed, stored.price_wed),
  price_thu: keep(patch.price_thu, stored.price_thu),
  price_fri: keep(patch.price_fri, stored.price_fri),
  price_sat: keep(patch.price_sat, stored.price_sat),
  price_sun: keep(patch.price_sun, stored.price_sun),
  min_stay: keep(patch.min_stay, stored.min_stay),
  max_stay: keep(patch.max_stay, stored.max_stay),
  closed_to_arrival: keep(patch.closed_to_arrival, stored.closed_to_arrival),
  closed_to_departure: keep(patch.closed_to_departure, stored.closed_to_departure),
  stop_sell: keep(patch.stop_sell, stored.stop_sell),
  extra_guest_charge: keep(patch.extra_guest_charge, stored.extra_guest_charge),
  single_guest_discount: keep(patch.single_guest_discount, stored.single_guest_discount)
})

/** Rules a body allows on its own (both ends sent), before the interval or its plan is loaded. */
export const checkAlone = (input: {
  readonly start_date?: string | undefined
  readonly end_date?: string | undefined
  readonly min_stay?: number | null | undefined
  readonly max_stay?: number | null | undefined
}): Check<void> =>
  all(
    () => (input.start_date !== undefined && input.end_date !== undefined
      ? nights("start_date", input.start_date, "end_date", input.end_date)
      : ok),
    () => bounds("min_stay", input.min_stay, "max_stay", input.max_stay)
  )

/**
 * Every rule on an interval's fields given its plan, in the order of 2.3; answers the fields with money
 * normalised. Money is in the plan's currency; `single_guest_discount` follows the plan's discount type; a
 * derived plan's intervals carry no weekday prices.
 */
export const checkFields = (fields: IntervalFields, plan: IntervalPlan): Check<IntervalFields> => {
  const currency = plan.currency
  const priced = plan.derived ? weekdayPriceKeys.find((key) => fields[key] !== null) : undefined
  const checked = Result.all({
    dates: nights("start_date", fields.start_date, "end_date", fields.end_date),
    derived: priced === undefined
      ? ok
      : fail(priced, "a derived rate plan's intervals carry no weekday prices (the price follows the parent plan)"),
    price_mon: moneyOrNull("price_mon", fields.price_mon, currency),
    price_tue: moneyOrNull("price_tue", fields.price_tue, currency),
    price_wed: moneyOrNull("price_wed", fields.price_wed, currency),
    price_thu: moneyOrNull("price_thu", fields.price_thu, currency),
    price_fri: moneyOrNull("price_fri", fields.price_fri, currency),
    price_sat: moneyOrNull("price_sat", fields.price_sat, currency),
    price_sun: moneyOrNull("price_sun", fields.price_sun, currency),
    stays: bounds("min_stay", fields.min_stay, "max_stay", fields.max_stay),
    extra_guest_charge: money("extra_guest_charge", fields.extra_guest_charge, currency),
    single_guest_discount: plan.single_guest_discount_type === "percent"
      ? percent("single_guest_discount", fields.single_guest_discount, 0, 100)
      : money("single_guest_discount", fields.single_guest_discount, currency)
  })
  return Result.map(checked, (c) => ({
    ...fields,
    price_mon: c.price_mon,
    price_tue: c.price_tue,
    price_wed: c.price_wed,
    price_thu: c.price_thu,
    price_fri: c.price_fri,
    price_sat: c.price_sat,
    price_sun: c.price_sun,
    extra_guest_charge: c.extra_guest_charge,
    single_guest_discount: c.single_guest_discount
  }))
}

/** Two ranges of nights share a night (end exclusive: back-to-back ranges do not overlap). */
export const overlaps = (
  a: { readonly start_date: string; readonly end_date: string },
  b: { readonly start_date: string; readonly end_date: string }
): boolean => a.start_date < b.end_date && b.start_date < a.end_date
