import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Schema from "effect/Schema"
import { IdempotentHeaders } from "../common/IdempotencyKey.js"
import * as Errors from "../common/Errors.js"
import { BookingNotFound, ReservationNotFound, Uuid, Booking } from "@hotel/domain"
import { NotFoundAs, RequiredScope, CacheControl, noStore } from "../common/Security.js"
import { created, CurrencyCode, DateOnly, Id, IdParam, Money, Timestamp } from "../common/Common.js"
import { doc, tag } from "../openapi/Docs.js"
import { IntParam } from "../common/QueryParams.js"
import { EntityTagged, IfMatchHeaders } from "../common/EntityTags.js"
import { BalanceEntry, Reservation, ReservationListItem, ReservationStatus } from "./ReservationSchemas.js"
import { BookingCreated, BookingRead, BookingConfirmed, BookingCancelled } from "./BookingSchemas.js"

export { BookingCreated, BookingRead, BookingConfirmed, BookingCancelled } from "./BookingSchemas.js"
export { Accommodation, BalanceEntry, Reservation, ReservationListItem, ReservationStatus } from "./ReservationSchemas.js"

/**
 * What refuses the confirm of a hold and of a booking alike (a booking's rooms are confirmed as holds are):
 * the hold's expiry, its state, the stock, and the payment's currency, amount and reference.
 */
const confirmRefusals = [
  Errors.HoldExpired,
  Errors.NotConfirmable,
  Errors.NoAvailability,
  Errors.CurrencyMismatch,
  Errors.AmountMismatch,
  Errors.PaymentReferenceReused
] as const

export const ReservationListParams = Schema.Struct({
  guest_id: Schema.optionalKey(Uuid),
  booking_id: Schema.optionalKey(Uuid),
  status: Schema.optionalKey(ReservationStatus),
  limit: Schema.optionalKey(IntParam(1, 100)),
  offset: Schema.optionalKey(IntParam(0, 10000))
})

export class ReservationReadsApi extends HttpApiGroup.make("reservationReads")
  .annotateMerge(tag("Holds and reservations", "The two-step sale (a hold, then its confirmation with a payment reference), reservation reads, cancellation and its quote."))
  .add(
    HttpApiEndpoint.get("list", "/reservations", {
      disableCodecs: true,
      query: ReservationListParams.fields,
      success: Schema.Struct({ has_more: Schema.Boolean, data: Schema.Array(ReservationListItem) }).annotate({ identifier: "ReservationPage" }),
      error: [Errors.GuestNotFound, Errors.BookingNotFound]
    })
      .annotateMerge(doc("List reservations", "Reservations, filtered by guest, booking or status, paged with `limit` and `offset`."))
  )
  .add(
    HttpApiEndpoint.get("get", "/reservations/:id", {
      disableCodecs: true,
      params: IdParam,
      success: Reservation,
      error: [Errors.ReservationNotFound]
    })
      .annotateMerge(doc("Get a reservation", "One reservation with its rooms, price, folio balances and status."))
      .annotate(NotFoundAs, ReservationNotFound)
      .annotateMerge(EntityTagged)
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
}).annotate({ identifier: "HoldCreated" })

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
}).annotate({ identifier: "HoldConfirmed" })

/** The two-step sale: hold, then confirm; scope `reservations:write`. */
export class HoldsApi extends HttpApiGroup.make("holds")
  .annotateMerge(tag("Holds and reservations", "The two-step sale."))
  .add(
    HttpApiEndpoint.post("create", "/holds", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      payload: Booking.HoldCreate,
      success: created(HoldCreated),
      error: [
        Errors.RoomTypeNotFound,
        Errors.RatePlanNotFound,
        Errors.GuestNotFound,
        Errors.ServiceNotFound,
        Errors.PartyTooLarge,
        Errors.HoldLimitReached,
        Errors.BlockNotDefinite,
        Errors.NoAvailability
      ]
    })
      .annotateMerge(doc("Place a hold", "Reserves rooms for a stay at a quoted price until `hold_expires_at`; confirm it before then. Availability is checked and taken under a lock, so two holds never take the same last room."))
  )
  .add(
    HttpApiEndpoint.post("confirm", "/holds/:id/confirm", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Booking.HoldConfirm,
      success: HoldConfirmed,
      error: [Errors.ReservationNotFound, ...confirmRefusals]
    })
      .annotateMerge(doc("Confirm a hold", "Turns a live hold into a confirmed reservation with your payment reference. Repeating it with the same reference answers `already_confirmed: true`."))
      .annotate(NotFoundAs, ReservationNotFound)
  )
  .annotate(RequiredScope, "reservations:write")
{}

export const ReservationCancelled = Schema.Struct({
  reservation_id: Id,
  status: Schema.Literal("cancelled"),
  /** What the policy says is owed to the guest, in minor units of the reservation currency (an obligation). */
  refund_due_minor: Schema.Int
}).annotate({ identifier: "ReservationCancelled" })

/**
 * Transitions of an existing reservation; scope `reservations:write`. Cancel
 * lives here; check-in, check-out, no-show and charges join this group.
 */
export class ReservationActionsApi extends HttpApiGroup.make("reservationActions")
  .annotateMerge(tag("Holds and reservations", "The two-step sale."))
  .add(
    HttpApiEndpoint.post("cancel", "/reservations/:id/cancel", {
      disableCodecs: true,
      params: IdParam,
      payload: Booking.ReservationCancel,
      headers: IfMatchHeaders,
      success: ReservationCancelled,
      error: [Errors.ReservationNotFound, Errors.NotCancellable, Errors.PreconditionFailed]
    })
      .annotateMerge(doc("Cancel a reservation", "Cancels a hold or a confirmed reservation; `refund_due_minor` is what the cancellation policy says is owed."))
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
}).annotate({ identifier: "CancellationQuote" })

/** `GET /reservations/{id}/cancellation-quote`; scope `reservations:read`. */
export class CancellationQuoteApi extends HttpApiGroup.make("cancellationQuote")
  .annotateMerge(tag("Holds and reservations", "The two-step sale."))
  .add(
    HttpApiEndpoint.get("get", "/reservations/:id/cancellation-quote", {
      disableCodecs: true,
      params: IdParam,
      success: CancellationQuote,
      error: [Errors.ReservationNotFound, Errors.NotCancellable]
    })
      .annotateMerge(doc("Quote a cancellation", "What cancelling now would refund, under which policy tier and until when."))
  )
  .annotate(RequiredScope, "reservations:read")
  .annotate(NotFoundAs, ReservationNotFound)
  .annotate(CacheControl, noStore)
{}

/** Bookings of several rooms; scope `reservations:write` (the read: `reservations:read`). */
export class BookingsApi extends HttpApiGroup.make("bookings")
  .annotateMerge(tag("Bookings", "Several rooms for one guest and one stay: held together or not at all, confirmed with one payment, cancelled together."))
  .add(
    HttpApiEndpoint.post("create", "/bookings", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      payload: Booking.BookingCreate,
      success: created(BookingCreated),
      error: [
        Errors.RoomTypeNotFound,
        Errors.RatePlanNotFound,
        Errors.GuestNotFound,
        Errors.ServiceNotFound,
        Errors.PartyTooLarge,
        Errors.CurrencyMismatch,
        Errors.HoldLimitReached,
        Errors.BlockNotDefinite,
        Errors.NoAvailability
      ]
    })
      .annotateMerge(doc("Book several rooms", "Holds 1 to 10 rooms for one guest and one stay, each priced and checked exactly as `POST /holds`, all or none. A refusal names its room: `param` `rooms[i].<field>` for a 400, the message for the others."))
  )
  .add(
    HttpApiEndpoint.get("get", "/bookings/:id", {
      disableCodecs: true,
      params: IdParam,
      success: BookingRead,
      error: [Errors.BookingNotFound]
    })
      .annotateMerge(doc("Get a booking", "The booking with each of its reservations as `GET /reservations/{id}` shows it, in the order of its rooms. `check_in`/`check_out` span its reservations that are not cancelled (all of them once every one is) and `total` is the sum of their totals, following every change of its rooms."))
      .annotate(RequiredScope, "reservations:read")
      .annotateMerge(EntityTagged)
  )
  .add(
    HttpApiEndpoint.post("confirm", "/bookings/:id/confirm", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Booking.HoldConfirm,
      success: BookingConfirmed,
      error: [Errors.BookingNotFound, ...confirmRefusals]
    })
      .annotateMerge(doc("Confirm a booking", "Confirms every room of the booking with one payment reference, or none; each folio records its own total as its share. Repeating it answers `already_confirmed: true`."))
  )
  .add(
    HttpApiEndpoint.post("cancel", "/bookings/:id/cancel", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Booking.ReservationCancel,
      success: BookingCancelled,
      error: [Errors.BookingNotFound, Errors.NotCancellable]
    })
      .annotateMerge(doc("Cancel a booking", "Cancels every reservation of the booking that can still be cancelled, each under the cancellation policy; `refund_due_minor` is their sum."))
  )
  .annotate(RequiredScope, "reservations:write")
  .annotate(NotFoundAs, BookingNotFound)
{}

/**
 * The `booking` feature's endpoint groups: holds, their confirmation and cancellation, reservation reads, and
 * bookings of several rooms (their schemas in ./BookingSchemas.ts). `Api.ts` adds them to `HotelApi`.
 */
export const BookingGroups = HttpApi.make("hotel")
  .add(ReservationReadsApi)
  .add(HoldsApi)
  .add(ReservationActionsApi)
  .add(CancellationQuoteApi)
  .add(BookingsApi)
