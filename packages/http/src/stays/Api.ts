import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { ReservationNotFound, Stay } from "@hotel/domain"
import { Authorization, IdempotentTransaction, RequestBody, NotFoundAs, RequiredScope } from "../Security.js"
import { IdParam } from "../Common.js"

export const StayTransitioned = Schema.Struct({
  reservation_id: Schema.String,
  status: Schema.Literal("checked_in", "checked_out", "no_show"),
  /** The room assigned at check-in; null for a no-show. */
  room_id: Schema.NullOr(Schema.String)
})

/** Check-in, check-out and no-show (decisions 5); scope `reservations:write`. */
export class StayApi extends HttpApiGroup.make("stay")
  .add(
    HttpApiEndpoint.post("checkIn")`/reservations/${IdParam}/check-in`
      .setPayload(Stay.CheckIn)
      .addSuccess(StayTransitioned)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.RoomNotFound)
      .addError(Errors.InvalidStatusTransition)
      .addError(Errors.RoomUnavailable)
      .addError(Errors.NoAvailability)
  )
  .add(
    HttpApiEndpoint.post("checkOut")`/reservations/${IdParam}/check-out`
      .addSuccess(StayTransitioned)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.InvalidStatusTransition)
  )
  .add(
    HttpApiEndpoint.post("noShow")`/reservations/${IdParam}/no-show`
      .addSuccess(StayTransitioned)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.InvalidStatusTransition)
  )
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "reservations:write")
  .annotate(NotFoundAs, ReservationNotFound)
{}
