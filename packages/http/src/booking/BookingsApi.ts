import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Booking, BookingNotFound } from "@hotel/domain"
import * as Errors from "../common/Errors.js"
import { NotFoundAs, RequiredScope } from "../common/Security.js"
import { Created, CurrencyCode, DateOnly, Id, IdParam, Money, Timestamp } from "../common/Common.js"
import { EntityTagged } from "../common/EntityTags.js"
import { doc, tag } from "../openapi/Docs.js"
import { Reservation, ReservationStatus } from "./ReservationSchemas.js"

// `POST /bookings` and what follows it: several rooms for one guest and one stay, held together, confirmed
// with one payment and cancelled together. Each room is a hold; each reservation reads as any other.

/** The booking's own id (the glossary's `booking_id` is a reservation's link to it). */
const BookingId = Id.annotations({ description: "The booking" })

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
})

export const BookingRead = Schema.Struct({
  id: BookingId,
  guest_id: Id,
  check_in: DateOnly,
  check_out: DateOnly,
  currency: CurrencyCode,
  total: Money,
  created_at: Timestamp,
  reservations: Schema.Array(Reservation)
})

export const BookingConfirmed = Schema.Struct({
  booking_id: BookingId,
  status: Schema.Literal("confirmed"),
  currency: CurrencyCode,
  total: Money,
  /** Base-currency estimate over the booking's folios; null when a line's currency has no configured rate. */
  folio_balance: Schema.NullOr(Money),
  already_confirmed: Schema.Boolean,
  reservations: Schema.Array(Schema.Struct({ reservation_id: Id, status: ReservationStatus }))
})

export const BookingCancelled = Schema.Struct({
  booking_id: BookingId,
  /** The sum of the reservations' refund obligations, in minor units of the booking's currency. */
  refund_due_minor: Schema.Int,
  reservations: Schema.Array(Schema.Struct({ reservation_id: Id, status: ReservationStatus, refund_due_minor: Schema.Int }))
})

/** Bookings of several rooms; scope `reservations:write` (the read: `reservations:read`). */
export class BookingsApi extends HttpApiGroup.make("bookings")
  .annotateContext(tag("Bookings", "Several rooms for one guest and one stay: held together or not at all, confirmed with one payment, cancelled together."))
  .add(
    HttpApiEndpoint.post("create", "/bookings")
      .annotateContext(doc("Book several rooms", "Holds 1 to 10 rooms for one guest and one stay, each priced and checked exactly as `POST /holds`, all or none. A refusal names its room: `param` `rooms[i].<field>` for a 400, the message for the others."))
      .setPayload(Booking.BookingCreate)
      .addSuccess(BookingCreated, Created)
      .addError(Errors.RoomTypeNotFound)
      .addError(Errors.RatePlanNotFound)
      .addError(Errors.GuestNotFound)
      .addError(Errors.ServiceNotFound)
      .addError(Errors.PartyTooLarge)
      .addError(Errors.CurrencyMismatch)
      .addError(Errors.HoldLimitReached)
      .addError(Errors.BlockNotDefinite)
      .addError(Errors.NoAvailability)
  )
  .add(
    HttpApiEndpoint.get("get")`/bookings/${IdParam}`
      .annotateContext(doc("Get a booking", "The booking with each of its reservations as `GET /reservations/{id}` shows it, in the order of its rooms."))
      .addSuccess(BookingRead)
      .addError(Errors.BookingNotFound)
      .annotate(RequiredScope, "reservations:read")
      .annotateContext(EntityTagged)
  )
  .add(
    HttpApiEndpoint.post("confirm")`/bookings/${IdParam}/confirm`
      .annotateContext(doc("Confirm a booking", "Confirms every room of the booking with one payment reference, or none; each folio records its own total as its share. Repeating it answers `already_confirmed: true`."))
      .setPayload(Booking.HoldConfirm)
      .addSuccess(BookingConfirmed)
      .addError(Errors.BookingNotFound)
      .addError(Errors.HoldExpired)
      .addError(Errors.NotConfirmable)
      .addError(Errors.NoAvailability)
      .addError(Errors.CurrencyMismatch)
      .addError(Errors.AmountMismatch)
      .addError(Errors.PaymentReferenceReused)
  )
  .add(
    HttpApiEndpoint.post("cancel")`/bookings/${IdParam}/cancel`
      .annotateContext(doc("Cancel a booking", "Cancels every reservation of the booking that can still be cancelled, each under the cancellation policy; `refund_due_minor` is their sum."))
      .setPayload(Booking.ReservationCancel)
      .addSuccess(BookingCancelled)
      .addError(Errors.BookingNotFound)
      .addError(Errors.NotCancellable)
  )
  .annotate(RequiredScope, "reservations:write")
  .annotate(NotFoundAs, BookingNotFound)
{}
