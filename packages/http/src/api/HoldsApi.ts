import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Booking, ReservationNotFound } from "@hotel/domain"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { Authorization, NotFoundAs, RequiredScope } from "../Security.js"
import { Created, IdParam } from "./Common.js"
import { BalanceEntry } from "./ReservationsApi.js"

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
      .addError(Errors.NoAvailability)
      .addError(Errors.HoldLimitReached)
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
  .middleware(Authorization)
  .annotate(RequiredScope, "reservations:write")
{}
