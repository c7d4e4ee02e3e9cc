import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Schema from "effect/Schema"
import * as Errors from "../common/Errors.js"
import { ReservationNotFound, Stay } from "@hotel/domain"
import { NotFoundAs, RequiredScope } from "../common/Security.js"
import { Id, IdParam } from "../common/Common.js"
import { doc, tag } from "../openapi/Docs.js"

export const StayTransitioned = Schema.Struct({
  reservation_id: Id,
  status: Schema.Literal("checked_in", "checked_out", "no_show"),
  /** The room assigned at check-in; null for a no-show. */
  room_id: Schema.NullOr(Id)
})

/** Check-in, check-out and no-show; scope `reservations:write`. */
export class StayApi extends HttpApiGroup.make("stay")
  .annotateContext(tag("Stays", "Check-in (with a room assignment), check-out and no-show of confirmed reservations."))
  .add(
    HttpApiEndpoint.post("checkIn")`/reservations/${IdParam}/check-in`
      .annotateContext(doc("Check a guest in", "Marks a confirmed reservation checked in and assigns it a room of its type."))
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
      .annotateContext(doc("Check a guest out", "Marks a checked-in reservation checked out."))
      .addSuccess(StayTransitioned)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.InvalidStatusTransition)
  )
  .add(
    HttpApiEndpoint.post("noShow")`/reservations/${IdParam}/no-show`
      .annotateContext(doc("Record a no-show", "Marks a confirmed reservation whose guest did not arrive."))
      .addSuccess(StayTransitioned)
      .addError(Errors.ReservationNotFound)
      .addError(Errors.InvalidStatusTransition)
  )
  .annotate(RequiredScope, "reservations:write")
  .annotate(NotFoundAs, ReservationNotFound)
{}

/** The `stays` feature's endpoint groups: check-in, check-out and no-show. `Api.ts` adds them to `HotelApi`. */
export const StaysGroups = HttpApi.make("hotel")
  .add(StayApi)
