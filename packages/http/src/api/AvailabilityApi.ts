import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { IsoDate, Uuid } from "@hotel/domain"
import * as Schema from "effect/Schema"
import * as Errors from "../Errors.js"
import { Authorization, CacheControl, noStore, RequiredScope } from "../Security.js"
import { ListOf } from "./Common.js"

export const AvailabilityParams = Schema.Struct({
  start_date: IsoDate,
  end_date: IsoDate,
  room_type_id: Schema.optional(Uuid)
})

export const AvailabilityNight = Schema.Struct({
  date: Schema.String,
  /** Rooms of the type in service. */
  rooms: Schema.Int,
  /** Rooms free that night (live holds, confirmed and checked-in stays taken off). */
  available: Schema.Int
})

export const RoomTypeAvailability = Schema.Struct({
  room_type_id: Schema.String,
  nights: Schema.Array(AvailabilityNight)
})

/** Live inventory (decisions 3.1): never cached, scope `catalog:read`. */
export class AvailabilityApi extends HttpApiGroup.make("availability")
  .add(
    HttpApiEndpoint.get("availability", "/availability")
      .setUrlParams(AvailabilityParams)
      .addSuccess(ListOf(RoomTypeAvailability))
      .addError(Errors.RoomTypeNotFound)
  )
  .middleware(Authorization)
  .annotate(RequiredScope, "catalog:read")
  .annotate(CacheControl, noStore)
{}
