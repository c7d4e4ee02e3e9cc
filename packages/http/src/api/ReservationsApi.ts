import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { ReservationNotFound, Uuid } from "@hotel/domain"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { Authorization, NotFoundAs, RequiredScope } from "../Security.js"
import { IdParam } from "./Common.js"

export const ReservationStatus = Schema.Literal("tentative", "confirmed", "checked_in", "checked_out", "cancelled", "no_show")

export const BalanceEntry = Schema.Struct({
  currency: Schema.String,
  charges: Schema.String,
  payments: Schema.String,
  balance: Schema.String
})

export const Accommodation = Schema.Struct({
  id: Schema.String,
  room_id: Schema.NullOr(Schema.String),
  room_type_id: Schema.String,
  check_in_date: Schema.String,
  check_out_date: Schema.String,
  status: Schema.String,
  nightly_rate: Schema.String
})

const listItemFields = {
  id: Schema.String,
  status: ReservationStatus,
  guest_id: Schema.String,
  check_in_date: Schema.String,
  check_out_date: Schema.String,
  room_type_id: Schema.String,
  room_type_name: Schema.String,
  nightly_rate: Schema.String,
  currency: Schema.String,
  folio_balance: Schema.NullOr(Schema.String),
  balances: Schema.Array(BalanceEntry)
}

export const ReservationListItem = Schema.Struct(listItemFields)

export const Reservation = Schema.Struct({
  ...listItemFields,
  confirmation_code: Schema.String,
  rate_plan_id: Schema.String,
  adults: Schema.Int,
  children: Schema.Int,
  child_ages: Schema.NullOr(Schema.Array(Schema.Int)),
  number_of_guests: Schema.Int,
  bed_config: Schema.NullOr(Schema.String),
  booking_source: Schema.String,
  special_notes: Schema.NullOr(Schema.String),
  promo_code: Schema.NullOr(Schema.String),
  total: Schema.String,
  hold_expires_at: Schema.NullOr(Schema.String),
  cancellation_reason: Schema.NullOr(Schema.String),
  folio_id: Schema.String,
  accommodations: Schema.Array(Accommodation),
  created_at: Schema.String
})

const intParam = (min: number, max: number) =>
  Schema.NumberFromString.pipe(
    Schema.int({ message: () => "must be a whole number" }),
    Schema.greaterThanOrEqualTo(min, { message: () => `must be ${min} to ${max}` }),
    Schema.lessThanOrEqualTo(max, { message: () => `must be ${min} to ${max}` })
  ).annotations({ message: () => `must be a whole number from ${min} to ${max}` })

export const ReservationListParams = Schema.Struct({
  guest_id: Schema.optional(Uuid),
  status: Schema.optional(ReservationStatus.annotations({
    message: () => "status must be one of tentative, confirmed, checked_in, checked_out, cancelled, no_show"
  })),
  limit: Schema.optional(intParam(1, 100)),
  offset: Schema.optional(intParam(0, 10000))
})

export class ReservationReadsApi extends HttpApiGroup.make("reservationReads")
  .add(
    HttpApiEndpoint.get("list", "/reservations")
      .setUrlParams(ReservationListParams)
      .addSuccess(Schema.Struct({ has_more: Schema.Boolean, data: Schema.Array(ReservationListItem) }))
      .addError(Errors.GuestNotFound)
  )
  .add(
    HttpApiEndpoint.get("get")`/reservations/${IdParam}`
      .addSuccess(Reservation)
      .addError(Errors.ReservationNotFound)
      .annotate(NotFoundAs, ReservationNotFound)
  )
  .middleware(Authorization)
  .annotate(RequiredScope, "reservations:read")
{}
