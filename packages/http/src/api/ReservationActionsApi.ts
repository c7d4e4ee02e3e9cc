import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Booking, ReservationNotFound } from "@hotel/domain"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { Authorization, NotFoundAs, RequiredScope } from "../Security.js"
import { IdParam } from "./Common.js"

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
  .middleware(Authorization)
  .annotate(RequiredScope, "reservations:write")
  .annotate(NotFoundAs, ReservationNotFound)
{}
