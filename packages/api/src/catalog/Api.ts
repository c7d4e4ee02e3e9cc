import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Schema from "effect/Schema"
import { CacheControl, RequiredScope, shortCache } from "../common/Security.js"
import { CurrencyCode, Decimal, Id, ListOf, Money } from "../common/Common.js"
import { doc, tag } from "../openapi/Docs.js"
import { EntityTagged } from "../common/EntityTags.js"

export const CancellationTier = Schema.Struct({
  days_before_arrival: Schema.Int,
  refund_percent: Schema.Finite
})

export const Property = Schema.Struct({
  id: Id,
  code: Schema.String,
  name: Schema.String,
  timezone: Schema.String,
  base_currency: CurrencyCode,
  currencies: Schema.Array(Schema.Struct({ currency: CurrencyCode, rate_to_base: Decimal })),
  loyalty_points_per_usd: Schema.Int,
  age_brackets: Schema.Array(Schema.Struct({ max_age: Schema.Int, extra_guest_percent: Decimal })),
  taxes: Schema.Array(Schema.Struct({
    code: Schema.String,
    name: Schema.String,
    kind: Schema.String,
    value: Decimal,
    applies_to: Schema.NullOr(Schema.String),
    max_nights: Schema.NullOr(Schema.Int),
    exempt_under_age: Schema.NullOr(Schema.Int)
  })),
  cancellation_policy: Schema.Array(CancellationTier),
  default_rate_plan_id: Schema.NullOr(Id)
}).annotate({ identifier: "Property" })

export const RoomType = Schema.Struct({
  id: Id,
  code: Schema.String,
  name: Schema.String,
  base_occupancy: Schema.Int,
  max_occupancy: Schema.Int,
  bed_configs: Schema.Array(Schema.String),
  rooms: Schema.Array(Schema.Struct({ id: Id, number: Schema.String }))
}).annotate({ identifier: "RoomType" })

export const Modifier = Schema.Struct({
  key: Schema.String,
  label: Schema.String,
  type: Schema.String,
  options: Schema.optionalKey(Schema.Array(Schema.String)),
  required: Schema.Boolean
})

export const Service = Schema.Struct({
  id: Id,
  code: Schema.String,
  name: Schema.String,
  price: Money,
  currency: CurrencyCode,
  pricing_unit: Schema.String,
  revenue_category: Schema.String,
  guest_bookable: Schema.Boolean,
  tax: Schema.NullOr(Schema.Struct({ kind: Schema.String, value: Decimal })),
  modifiers: Schema.Array(Modifier)
}).annotate({ identifier: "Service" })

export class CatalogApi extends HttpApiGroup.make("catalog")
  .annotateMerge(tag("Property and catalogue", "The property's settings, its room types with their rooms, and the services guests can add to a stay."))
  .add(HttpApiEndpoint.get("property", "/property", {
    disableCodecs: true,
    success: Property
  })
    .annotateMerge(doc("Get the property", "The property's currencies, taxes, child age brackets, loyalty earning rate and default cancellation policy."))
    .annotateMerge(EntityTagged))
  .add(HttpApiEndpoint.get("roomTypes", "/room-types", {
    disableCodecs: true,
    success: ListOf(RoomType)
  })
    .annotateMerge(doc("List room types", "Every room type with its occupancy, bed configurations and rooms."))
    .annotateMerge(EntityTagged))
  .add(HttpApiEndpoint.get("services", "/services", {
    disableCodecs: true,
    success: ListOf(Service)
  })
    .annotateMerge(doc("List services", "The services that can be added to a hold or charged to a folio, with their price, tax and modifiers."))
    .annotateMerge(EntityTagged))
  .annotate(RequiredScope, "catalog:read")
  .annotate(CacheControl, shortCache)
{}

/** The `catalog` feature's endpoint groups: the property, its room types and services. `Api.ts` adds them to `HotelApi`. */
export const CatalogGroups = HttpApi.make("hotel")
  .add(CatalogApi)
