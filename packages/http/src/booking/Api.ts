import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import * as Errors from "../common/Errors.js"
import { ReservationNotFound, Uuid, Booking } from "@hotel/domain"
import { NotFoundAs, RequiredScope, CacheControl, noStore } from "../common/Security.js"
import { Created, CurrencyCode, DateOnly, Id, IdParam, Money, Timestamp } from "../common/Common.js"
import { doc, tag } from "../openapi/Docs.js"
import { IntParam } from "../common/QueryParams.js"
import { EntityTagged, IfMatchHeaders } from "../common/EntityTags.js"
import { BookingsApi } from "./BookingsApi.js"
import { BalanceEntry, Reservation, ReservationListItem, ReservationStatus } from "./ReservationSchemas.js"

export { Accommodation, BalanceEntry, Reservation, ReservationListItem, ReservationStatus } from "./ReservationSchemas.js"

export const ReservationListParams = Schema.Struct({
  guest_id: Schema.optional(Uuid),
  booking_id: Schema.optional(Uuid),
  status: Schema.optional(ReservationStatus.annotations({
    message: () => "must be one of tentative, confirmed, checked_in, checked_out, cancelled, no_show"
  })),
  limit: Schema.optional(IntParam(1, 100)),
  offset: Schema.optional(IntParam(0, 10000))
})

export class ReservationReadsApi extends HttpApiGroup.make("reservationReads")
  .annotateContext(tag("Holds and reservations", "The two-step sale (a hold, then its confirmation with a payment reference), reservation reads, cancellation and its quote."))
  .add(
    HttpApiEndpoint.get("list", "/reservations")
      .annotateContext(doc("List reservations", "Reservations, filtered by guest, booking or status, paged with `limit` and `offset`."))
      .setUrlParams(ReservationListParams)
      .addSuccess(Schema.Struct({ has_more: Schema.Boolean, data: Schema.Array(ReservationListItem) }))
      .addError(Errors.GuestNotFound)
      .addError(Errors.BookingNotFound)
  )
  .add(
    HttpApiEndpoint.get("get")`/reservations/${IdParam}`
      .annotateContext(doc("Get a reservation", "One reservation with its rooms, price, folio balances and status."))
      .addSuccess(Reservation)
      .addError(Errors.ReservationNotFound)
      .annotate(NotFoundAs, ReservationNotFound)
      .annotateContext(EntityTagged)
  )
  .annotate(RequiredScope, "reservations:read")
{}

export const HoldCreated = Schema.Struct({
  reservation_id: Id,
  folio_id: Id,
  /** Short human-readable code for guests and staff; never a resource id. */
  confirmation_code: Schema.String,
  hold_expires_at: Timestamp,
  /** The sum of the folio's charge lines, in `currency`. */
  total: Money,
  currency: CurrencyCode,
  status: Schema.Literal("tentative")
})

export const HoldConfirmed = Schema.Struct({
  reservation_id: Id,
  status: Schema.Literal("confirmed"),
  check_in_date: DateOnly,
  check_out_date: DateOnly,
  currency: CurrencyCode,
  /** Base-currency estimate; null when a line's currency has no configured rate. */
  folio_balance: Schema.NullOr(Money),
  /** The per-currency truth behind `folio_balance`. */
  balances: Schema.Array(BalanceEntry),
  already_confirmed: Schema.Boolean
})

/** The two-step sale: hold, then confirm; scope `reservations:write`. */
export class HoldsApi extends HttpApiGroup.make("holds")
  .annotateContext(tag("Holds and reservations", "The two-step sale."))
  .add(
    HttpApiEndpoint.post("create", "/holds")
      .annotateContext(doc("Place a hold", "Reserves rooms for a stay at a quoted price until `hold_expires_at`; confirm it before then. Availability is checked and taken under a lock, so two holds never take the same last room."))
      .setPayload(Booking.HoldCreate)
      .addSuccess(HoldCreated, Created)
      .addError(Errors.RoomTypeNotFound)
      .addError(Errors.RatePlanNotFound)
      .addError(Errors.GuestNotFound)
      .addError(Errors.ServiceNotFound)
      .addError(Errors.PartyTooLarge)
      .addError(Errors.HoldLimitReached)
      .addError(Errors.BlockNotDefinite)
      .addError(Errors.NoAvailability)
  )
  .add(
    HttpApiEndpoint.post("confirm")`/holds/${IdParam}/confirm`
      .annotateContext(doc("Confirm a hold", "Turns a live hold into a confirmed reservation with your payment reference. Repeating it with the same reference answers `already_confirmed: true`."))
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
  .annotate(RequiredScope, "reservations:write")
{}

export const ReservationCancelled = Schema.Struct({
  reservation_id: Id,
  status: Schema.Literal("cancelled"),
  /** What the policy says is owed to the guest, in minor units of the reservation currency (an obligation). */
  refund_due_minor: Schema.Int
})

/**
 * Transitions of an existing reservation; scope `reservations:write`. Cancel
 * lives here; check-in, check-out, no-show and charges join this group.
 */
export class ReservationActionsApi extends HttpApiGroup.make("reservationActions")
  .annotateContext(tag("Holds and reservations", "The two-step sale."))
  .add(
    HttpApiEndpoint.post("cancel")`/reservations/${IdParam}/cancel`
      .annotateContext(doc("Cancel a reservation", "Cancels a hold or a confirmed reservation; `refund_due_minor` is what the cancellation policy says is owed."))
      .setPayload(Booking.ReservationCancel)
      .setHeaders(IfMatchHeaders)
      .addSuccess(ReservationCancelled)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.NotCancellable)
      .addError(Errors.PreconditionFailed)
  )
  .annotate(RequiredScope, "reservations:write")
  .annotate(NotFoundAs, ReservationNotFound)
{}

export const CancellationQuote = Schema.Struct({
  reservation_id: Id,
  /** What a cancel now would owe the guest, in minor units of `currency` (0 when nothing was paid). */
  refund_due_minor: Schema.Int,
  currency: CurrencyCode,
  /** The policy's refund percentage in force now. */
  refund_percent: Schema.Int,
  /** When that percentage stops applying (UTC); null when it is the last term. */
  tier_until: Schema.NullOr(Timestamp),
  /** The instant the quote is for (UTC). */
  quoted_at: Timestamp
})

/** `GET /reservations/{id}/cancellation-quote`; scope `reservations:read`. */
export class CancellationQuoteApi extends HttpApiGroup.make("cancellationQuote")
  .annotateContext(tag("Holds and reservations", "The two-step sale."))
  .add(
    HttpApiEndpoint.get("get")`/reservations/${IdParam}/cancellation-quote`
      .annotateContext(doc("Quote a cancellation", "What cancelling now would refund, under which policy tier and until when."))
      .addSuccess(CancellationQuote)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.NotCancellable)
  )
  .annotate(RequiredScope, "reservations:read")
  .annotate(NotFoundAs, ReservationNotFound)
  .annotate(CacheControl, noStore)
{}

/**
 * The `booking` feature's endpoint groups: holds, their confirmation and cancellation, reservation reads, and
 * bookings of several rooms (./BookingsApi.ts). `Api.ts` adds them to `HotelApi`.
 */
export const BookingGroups = HttpApi.make("hotel")
  .add(ReservationReadsApi)
  .add(HoldsApi)
  .add(ReservationActionsApi)
  .add(CancellationQuoteApi)
  .add(BookingsApi)
