import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import { Ari } from "@hotel/domain"
import { IdempotentHeaders } from "../common/IdempotencyKey.js"
import * as Errors from "../common/Errors.js"
import { ListOf } from "../common/Common.js"
import { EntityTagged } from "../common/EntityTags.js"
import { CacheControl, RequiredScope } from "../common/Security.js"
import { doc, tag } from "../openapi/Docs.js"
import { AriPlanCalendar, AriWrite, AriWritten } from "./AriSchemas.js"

const description = "Channel ARI: prices, restrictions and inventory by range and weekday, written in bulk and read as a calendar."

/**
 * `POST /ari` needs `rates:write`, and `inventory:write` too when an item names a room type (the handler reads
 * it from the body, before the fields are judged); `GET /ari` needs `rates:read`.
 */
export class AriApi extends HttpApiGroup.make("ari")
  .annotateMerge(tag("Channel ARI", description))
  .add(
    HttpApiEndpoint.post("write", "/ari", {
      disableCodecs: true,
      headers: IdempotentHeaders,
      payload: AriWrite,
      success: AriWritten,
      error: [Errors.RatePlanNotFound, Errors.RoomTypeNotFound]
    })
      .annotateMerge(doc(
        "Set prices, restrictions and inventory in bulk",
        "Applies its items in order, in one transaction: a rate item sets a plan's per-night overrides (`null` " +
          "removes one), an inventory item does what `PUT /room-types/{id}/inventory` does. Per night and field " +
          "the last item wins. A refused call changes nothing."
      ))
      .annotate(RequiredScope, "rates:write")
  )
  .add(
    HttpApiEndpoint.get("read", "/ari", {
      disableCodecs: true,
      query: Ari.AriReadParams.fields,
      success: ListOf(AriPlanCalendar),
      error: [Errors.RatePlanNotFound, Errors.RoomTypeNotFound]
    })
      .annotateMerge(doc(
        "Read the calendar",
        "Each plan's nights over the range (`end_date` exclusive, at most 366): the one-night price for the base " +
          "occupancy, the restrictions on an arrival that night, and the rooms available. Revalidate with If-None-Match."
      ))
      .annotateMerge(EntityTagged)
      .annotate(RequiredScope, "rates:read")
      .annotate(CacheControl, "no-cache")
  )
{}

/** The `ari` feature's endpoint group. `Api.ts` adds it to `HotelApi`. */
export const AriGroups = HttpApi.make("hotel").add(AriApi)
