import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Schema from "effect/Schema"
import { IdempotentHeaders } from "../common/IdempotencyKey.js"
import * as Errors from "../common/Errors.js"
import { ReservationNotFound, Stay } from "@hotel/domain"
import { NotFoundAs, RequiredScope } from "../common/Security.js"
import { Id, IdParam } from "../common/Common.js"
import { doc, tag } from "../openapi/Docs.js"

export const StayTransitioned = Schema.Struct({
  reservation_id: Id,
  status: Schema.Literals(["checked_in", "checked_out", "no_show"]),
  /** The room assigned at check-in; null for a no-show. */
  room_id: Schema.NullOr(Id)
}).annotate({ identifier: "StayTransitioned" })

/** Check-in, check-out and no-show; scope `reservations:write`. */
export class StayApi extends HttpApiGroup.make("stay")
  .annotateMerge(tag("Stays", "Check-in (with a room assignment), check-out and no-show of confirmed reservations."))
  .add(
    HttpApiEndpoint.post("checkIn", "/reservations/:id/check-in", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Stay.CheckIn,
      success: StayTransitioned,
      error: [
        Errors.ReservationNotFound,
        Errors.RoomNotFound,
        Errors.InvalidStatusTransition,
        Errors.RoomUnavailable,
        Errors.NoAvailability
      ]
    })
      .annotateMerge(doc("Check a guest in", "Marks a confirmed reservation checked in and assigns it a room of its type."))
  )
  .add(
    HttpApiEndpoint.post("checkOut", "/reservations/:id/check-out", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      success: StayTransitioned,
      error: [Errors.ReservationNotFound, Errors.InvalidStatusTransition]
    })
      .annotateMerge(doc("Check a guest out", "Marks a checked-in reservation checked out."))
  )
  .add(
    HttpApiEndpoint.post("noShow", "/reservations/:id/no-show", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      success: StayTransitioned,
      error: [Errors.ReservationNotFound, Errors.InvalidStatusTransition]
    })
      .annotateMerge(doc("Record a no-show", "Marks a confirmed reservation whose guest did not arrive."))
  )
  .annotate(RequiredScope, "reservations:write")
  .annotate(NotFoundAs, ReservationNotFound)
{}

/** The `stays` feature's endpoint groups: check-in, check-out and no-show. `Api.ts` adds them to `HotelApi`. */
export const StaysGroups = HttpApi.make("hotel")
  .add(StayApi)
