import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Authorization, IdempotentTransaction, RequestBody, CacheControl, RequiredScope, shortCache } from "../Security.js"
import { ListOf } from "../Common.js"

export const CancellationTier = Schema.Struct({
  days_before_arrival: Schema.Int,
  refund_percent: Schema.Number
})

export const Property = Schema.Struct({
  id: Schema.String,
  code: Schema.String,
  name: Schema.String,
  timezone: Schema.String,
  base_currency: Schema.String,
  currencies: Schema.Array(Schema.Struct({ currency: Schema.String, rate_to_base: Schema.String })),
  loyalty_points_per_usd: Schema.Int,
  age_brackets: Schema.Array(Schema.Struct({ max_age: Schema.Int, extra_guest_percent: Schema.String })),
  taxes: Schema.Array(Schema.Struct({
    code: Schema.String,
    name: Schema.String,
    kind: Schema.String,
    value: Schema.String,
    applies_to: Schema.NullOr(Schema.String),
    max_nights: Schema.NullOr(Schema.Int),
    exempt_under_age: Schema.NullOr(Schema.Int)
  })),
  cancellation_policy: Schema.Array(CancellationTier),
  default_rate_plan_id: Schema.NullOr(Schema.String)
})

export const RoomType = Schema.Struct({
  id: Schema.String,
  code: Schema.String,
  name: Schema.String,
  base_occupancy: Schema.Int,
  max_occupancy: Schema.Int,
  bed_configs: Schema.Array(Schema.String),
  rooms: Schema.Array(Schema.Struct({ id: Schema.String, number: Schema.String }))
})

export const Modifier = Schema.Struct({
  key: Schema.String,
  label: Schema.String,
  type: Schema.String,
  options: Schema.optional(Schema.Array(Schema.String)),
  required: Schema.Boolean
})

export const Service = Schema.Struct({
  id: Schema.String,
  code: Schema.String,
  name: Schema.String,
  price: Schema.String,
  currency: Schema.String,
  pricing_unit: Schema.String,
  revenue_category: Schema.String,
  guest_bookable: Schema.Boolean,
  tax: Schema.NullOr(Schema.Struct({ kind: Schema.String, value: Schema.String })),
  modifiers: Schema.Array(Modifier)
})

export class CatalogApi extends HttpApiGroup.make("catalog")
  .add(HttpApiEndpoint.get("property", "/property").addSuccess(Property))
  .add(HttpApiEndpoint.get("roomTypes", "/room-types").addSuccess(ListOf(RoomType)))
  .add(HttpApiEndpoint.get("services", "/services").addSuccess(ListOf(Service)))
  .middleware(IdempotentTransaction)
  .middleware(RequestBody)
  .middleware(Authorization)
  .annotate(RequiredScope, "catalog:read")
  .annotate(CacheControl, shortCache)
{}
