import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { ReservationNotFound, Uuid, Booking } from "@hotel/domain"
import { Authorization, IdempotentTransaction, RequestBody, NotFoundAs, RequiredScope, CacheControl, noStore } from "../Security.js"
import { IdParam, Created } from "../Common.js"

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
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "reservations:read")
{}

export const HoldCreated = Schema.Struct({
  reservation_id: Schema.String,
  folio_id: Schema.String,
  /** Short human-readable code for guests and staff; never a resource id. */
  confirmation_code: Schema.String,
  hold_expires_at: Schema.String,
  /** The sum of the folio's charge lines, in `currency`. */
  total: Schema.String,
  currency: Schema.String,
  status: Schema.Literal("tentative")
})

export const HoldConfirmed = Schema.Struct({
  reservation_id: Schema.String,
  status: Schema.Literal("confirmed"),
  check_in_date: Schema.String,
  check_out_date: Schema.String,
  currency: Schema.String,
  /** Base-currency estimate (interface 2.8); null when a line's currency has no configured rate. */
  folio_balance: Schema.NullOr(Schema.String),
  /** The per-currency truth behind `folio_balance`. */
  balances: Schema.Array(BalanceEntry),
  already_confirmed: Schema.Boolean
})

/** The two-step sale (interface 4.5, 4.6): hold, then confirm; scope `reservations:write`. */
export class HoldsApi extends HttpApiGroup.make("holds")
  .add(
    HttpApiEndpoint.post("create", "/holds")
      .setPayload(Booking.HoldCreate)
      .addSuccess(HoldCreated, Created)
      .addError(Errors.RoomTypeNotFound)
      .addError(Errors.RatePlanNotFound)
      .addError(Errors.GuestNotFound)
      .addError(Errors.ServiceNotFound)
      .addError(Errors.PartyTooLarge)
      .addError(Errors.HoldLimitReached)
      .addError(Errors.NoAvailability)
  )
  .add(
    HttpApiEndpoint.post("confirm")`/holds/${IdParam}/confirm`
      .setPayload(Booking.HoldConfirm)
      .addSuccess(HoldConfirmed)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.HoldExpired)
      .addError(Errors.NotConfirmable)
      .addError(Errors.NoAvailability)
      .addError(Errors.CurrencyMismatch)
      .addError(Errors.AmountMismatch)
      .addError(Errors.PaymentReferenceReused)
      .annotate(NotFoundAs, ReservationNotFound)
  )
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "reservations:write")
{}

export const ReservationCancelled = Schema.Struct({
  reservation_id: Schema.String,
  status: Schema.Literal("cancelled"),
  /** What the policy says is owed to the guest, in minor units of the reservation currency (an obligation). */
  refund_due_minor: Schema.Int
})

/**
 * Transitions of an existing reservation (interface 4.9, decisions 5); scope `reservations:write`. Cancel
 * lives here; check-in, check-out, no-show and charges join this group.
 */
export class ReservationActionsApi extends HttpApiGroup.make("reservationActions")
  .add(
    HttpApiEndpoint.post("cancel")`/reservations/${IdParam}/cancel`
      .setPayload(Booking.ReservationCancel)
      .addSuccess(ReservationCancelled)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.NotCancellable)
  )
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "reservations:write")
  .annotate(NotFoundAs, ReservationNotFound)
{}

export const CancellationQuote = Schema.Struct({
  reservation_id: Schema.String,
  /** What a cancel now would owe the guest, in minor units of `currency` (0 when nothing was paid). */
  refund_due_minor: Schema.Int,
  currency: Schema.String,
  /** The policy's refund percentage in force now. */
  refund_percent: Schema.Int,
  /** When that percentage stops applying (UTC); null when it is the last term. */
  tier_until: Schema.NullOr(Schema.String),
  /** The instant the quote is for (UTC). */
  quoted_at: Schema.String
})

/** `GET /reservations/{id}/cancellation-quote` (decisions 3.1); scope `reservations:read`. */
export class CancellationQuoteApi extends HttpApiGroup.make("cancellationQuote")
  .add(
    HttpApiEndpoint.get("get")`/reservations/${IdParam}/cancellation-quote`
      .addSuccess(CancellationQuote)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.NotCancellable)
  )
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "reservations:read")
  .annotate(NotFoundAs, ReservationNotFound)
  .annotate(CacheControl, noStore)
{}
