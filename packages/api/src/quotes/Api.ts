import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as Schema from "effect/Schema"
import * as Errors from "../common/Errors.js"
import { boundedString, IsoDate, Uuid } from "@hotel/domain"
import { CacheControl, noStore, RequiredScope } from "../common/Security.js"
import { CurrencyCode, DateOnly, Id, ListOf, Money } from "../common/Common.js"
import { BooleanParam, IncludeParam, IntListParam, IntParam } from "../common/QueryParams.js"
import { doc, tag } from "../openapi/Docs.js"

export const RatesParams = Schema.Struct({
  check_in: IsoDate,
  check_out: IsoDate,
  adults: IntParam(1, 20),
  children: Schema.optionalKey(IntParam(0, 20)),
  child_ages: Schema.optionalKey(IntListParam(20, "ages", 120)),
  room_type_id: Schema.optionalKey(Uuid),
  rate_plan_id: Schema.optionalKey(Uuid),
  /** As on a hold: at most 40 characters. */
  promo_code: Schema.optionalKey(boundedString(0, 40)),
  include_unavailable: Schema.optionalKey(BooleanParam),
  /** `trace` adds each night's `trace`; without it a long stay on many plans answers far less. */
  include: Schema.optionalKey(IncludeParam)
})

export const TraceEntry = Schema.Struct({
  step: Schema.Literals(["base", "override", "interval", "derivation", "extra_guest", "single_guest_discount", "rounding"]),
  amount: Money,
  detail: Schema.optionalKey(Schema.String)
})

export const OfferReason = Schema.Literals(["sold_out",
  "party_too_large",
  "booking_window",
  "stay_window",
  "min_stay",
  "max_stay",
  "closed_to_arrival",
  "closed_to_departure",
  "stop_sell",
  "promo_code_required",
  "promo_code_invalid",
  "currency_unavailable",
  "price_out_of_range"])

export const Offer = Schema.Struct({
  rate_plan_id: Id,
  rate_plan_name: Schema.String,
  room_type_id: Id,
  currency: CurrencyCode,
  /** Null only when the stay cannot be priced (`currency_unavailable`). */
  total: Schema.NullOr(Money),
  nightly_rate: Schema.NullOr(Money),
  /** Each night has `trace` only when the request says `include=trace`. */
  nights: Schema.Array(Schema.Struct({ date: DateOnly, amount: Money, trace: Schema.optionalKey(Schema.Array(TraceEntry)) })),
  /** The folio charge lines a hold of this offer writes, in order. */
  lines: Schema.Array(Schema.Struct({ kind: Schema.String, description: Schema.String, amount: Money })),
  taxes: Schema.Array(Schema.Struct({ code: Schema.String, name: Schema.String, amount: Money })),
  cancellation_terms: Schema.Array(Schema.Struct({ until: Schema.NullOr(Schema.String), refund_percent: Schema.Finite })),
  /** The entitlements a hold gives: quantity and allowance already multiplied by the frequency. */
  inclusions: Schema.Array(Schema.Struct({
    label: Schema.String,
    inclusion_kind: Schema.Literals(["perk", "credit"]),
    revenue_category: Schema.String,
    service_item_id: Schema.NullOr(Id),
    currency: CurrencyCode,
    quantity: Schema.Int,
    allowance: Money
  })),
  available: Schema.Int,
  bookable: Schema.Boolean,
  reasons: Schema.Array(OfferReason)
}).annotate({ identifier: "Offer" })

/** Quotes: live inventory, never cached, scope `catalog:read`. */
export class RatesApi extends HttpApiGroup.make("rates")
  .annotateMerge(tag("Availability and quotes", "What can be sold for a stay: free rooms per night, and the price of each bookable rate plan with how it was computed."))
  .add(
    HttpApiEndpoint.get("rates", "/rates", {
      disableCodecs: true,
      query: RatesParams.fields,
      success: ListOf(Offer),
      error: [Errors.RoomTypeNotFound]
    })
      .annotateMerge(doc("Quote a stay", "The price of a stay for a party in every rate plan the key may sell: nightly prices (with how each was reached under `include=trace`), taxes, inclusions and cancellation terms. With `include_unavailable=true`, plans that cannot be booked are listed with the reasons."))
  )
  .annotate(RequiredScope, "catalog:read")
  .annotate(CacheControl, noStore)
{}

/** The `quotes` feature's endpoint groups: priced quotes. `Api.ts` adds them to `HotelApi`. */
export const QuotesGroups = HttpApi.make("hotel")
  .add(RatesApi)
