import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import { Inventory, IsoDate, OutOfOrderNotFound, RoomNotFound, RoomTypeNotFound, Uuid } from "@hotel/domain"
import * as Schema from "effect/Schema"
import { IdempotentHeaders } from "../common/IdempotencyKey.js"
import { created, DateOnly, Id, IdParam, ListOf, Timestamp } from "../common/Common.js"
import * as Errors from "../common/Errors.js"
import { CacheControl, NotFoundAs, noStore, RequiredScope } from "../common/Security.js"
import { doc, tag } from "../openapi/Docs.js"

export const OutOfOrderPeriod = Schema.Struct({
  id: Id,
  room_id: Id,
  room_type_id: Id,
  start_date: DateOnly,
  end_date: DateOnly,
  reason: Schema.NullOr(Schema.String),
  created_at: Timestamp
}).annotate({ identifier: "OutOfOrderPeriod" })

export const ControlsNight = Schema.Struct({
  date: DateOnly,
  sell_limit: Schema.NullOr(Schema.Int),
  overbooking: Schema.Int
}).annotate({ identifier: "ControlsNight" })

const description = "Rooms out of order, sell limits and overbooking: what each night of a room type can sell."

/** Inventory controls: reads need `inventory:read`, writes `inventory:write`. */
export class InventoryApi extends HttpApiGroup.make("inventory")
  .annotateMerge(tag("Inventory controls", description))
  .add(
    HttpApiEndpoint.post("outOfOrder", "/rooms/:id/out-of-order", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Inventory.OutOfOrderCreate,
      success: created(Schema.Struct({ out_of_order_id: Id }).annotate({ identifier: "OutOfOrderCreated" })),
      error: [Errors.RoomNotFound, Errors.OutOfOrderOverlap, Errors.RoomUnavailable, Errors.NoAvailability]
    })
      .annotateMerge(doc("Take a room out of order", "Takes one room out of service for a range of nights; its room type has one room fewer in service on each of them."))
      .annotate(NotFoundAs, RoomNotFound)
  )
  .add(
    HttpApiEndpoint.get("listOutOfOrder", "/out-of-order", {
      disableCodecs: true,
      query: Inventory.OutOfOrderListParams.fields,
      success: ListOf(OutOfOrderPeriod),
      error: [Errors.RoomTypeNotFound]
    })
      .annotateMerge(doc("List periods out of order", "The periods sharing a night with the range (`end_date` exclusive), by `start_date`."))
      .annotate(RequiredScope, "inventory:read")
  )
  .add(
    HttpApiEndpoint.delete("deleteOutOfOrder", "/out-of-order/:id", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      success: Schema.Struct({ out_of_order_id: Id, deleted: Schema.Literal(true) }).annotate({ identifier: "OutOfOrderDeleted" })
    })
      .annotateMerge(doc("Put a room back in service", "Deletes the period out of order."))
      .annotate(NotFoundAs, OutOfOrderNotFound)
  )
  .add(
    HttpApiEndpoint.put("putControls", "/room-types/:id/inventory", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      params: IdParam,
      payload: Inventory.InventoryPut,
      success: Schema.Struct({ room_type_id: Id, nights_updated: Schema.Int }).annotate({ identifier: "InventoryUpdated" }),
      error: [Errors.RoomTypeNotFound]
    })
      .annotateMerge(doc("Set sell limits and overbooking", "Sets `sell_limit` and/or `overbooking` on every night of the range (only the weekdays of `days` when sent)."))
      .annotate(NotFoundAs, RoomTypeNotFound)
  )
  .add(
    HttpApiEndpoint.get("getControls", "/room-types/:id/inventory", {
      disableCodecs: true,
      params: IdParam,
      query: Inventory.InventoryRangeParams.fields,
      success: Schema.Struct({ room_type_id: Id, nights: Schema.Array(ControlsNight) }).annotate({ identifier: "InventoryControls" }),
      error: [Errors.RoomTypeNotFound]
    })
      .annotateMerge(doc("Get sell limits and overbooking", "Each night of the range (`end_date` exclusive) with its sell limit and overbooking."))
      .annotate(RequiredScope, "inventory:read")
      .annotate(NotFoundAs, RoomTypeNotFound)
  )
  .annotate(RequiredScope, "inventory:write")
{}

export const AvailabilityParams = Schema.Struct({
  start_date: IsoDate,
  end_date: IsoDate,
  room_type_id: Schema.optionalKey(Uuid)
})

export const AvailabilityNight = Schema.Struct({
  date: DateOnly,
  /** Rooms of the type (retired rooms not counted). */
  rooms: Schema.Int,
  /** Of those, out of order that night. */
  out_of_order: Schema.Int,
  /** The night's sell limit, or null for none. */
  sell_limit: Schema.NullOr(Schema.Int),
  /** Rooms the night may sell beyond its capacity (0 for none). */
  overbooking: Schema.Int,
  /** Live holds, confirmed and checked-in stays. */
  taken: Schema.Int,
  /** The remaining units of definite blocks, set aside on the night for their pickups. */
  blocked: Schema.Int,
  /** max(0, capacity − taken − blocked), capacity = min(rooms in service, sell limit) + overbooking. */
  available: Schema.Int
})

export const RoomTypeAvailability = Schema.Struct({
  room_type_id: Id,
  nights: Schema.Array(AvailabilityNight)
}).annotate({ identifier: "RoomTypeAvailability" })

/** Live inventory: never cached, scope `catalog:read`. */
export class AvailabilityApi extends HttpApiGroup.make("availability")
  .annotateMerge(tag("Availability and quotes", "What can be sold for a stay."))
  .add(
    HttpApiEndpoint.get("availability", "/availability", {
      disableCodecs: true,
      query: AvailabilityParams.fields,
      success: ListOf(RoomTypeAvailability),
      error: [Errors.RoomTypeNotFound]
    })
      .annotateMerge(doc("Get availability", "Rooms free per room type and night over a date range."))
  )
  .annotate(RequiredScope, "catalog:read")
  .annotate(CacheControl, noStore)
{}

/** The `inventory` feature's endpoint groups: what is free (`/availability`) and the controls of what may sell. `Api.ts` adds them to `HotelApi`. */
export const InventoryGroups = HttpApi.make("hotel")
  .add(AvailabilityApi)
  .add(InventoryApi)
