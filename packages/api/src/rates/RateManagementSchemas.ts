import * as Schema from "effect/Schema"
import { CurrencyCode, DateOnly, Id, Money, Timestamp } from "../common/Common.js"

// What hangs off a rate plan and is managed on its own: seasonal intervals, inclusions and credits, promo
// codes (their groups and the rate plan itself are in ./Api.ts).

const Price = Schema.NullOr(Schema.String)

/** An interval as read: money in the plan's currency. */
export const Interval = Schema.Struct({
  id: Id,
  rate_plan_id: Id,
  name: Schema.String,
  start_date: DateOnly,
  end_date: DateOnly,
  price_mon: Price,
  price_tue: Price,
  price_wed: Price,
  price_thu: Price,
  price_fri: Price,
  price_sat: Price,
  price_sun: Price,
  min_stay: Schema.NullOr(Schema.Int),
  max_stay: Schema.NullOr(Schema.Int),
  closed_to_arrival: Schema.Boolean,
  closed_to_departure: Schema.Boolean,
  stop_sell: Schema.Boolean,
  extra_guest_charge: Money,
  single_guest_discount: Money,
  currency: CurrencyCode,
  created_at: Timestamp
}).annotate({ identifier: "Interval" })

export const IntervalCreated = Schema.Struct({ interval_id: Id }).annotate({ identifier: "IntervalCreated" })
export const IntervalUpdated = Schema.Struct({ interval_id: Id, updated: Schema.Literal(true) }).annotate({ identifier: "IntervalUpdated" })
export const IntervalDeleted = Schema.Struct({ interval_id: Id, deleted: Schema.Literal(true) }).annotate({ identifier: "IntervalDeleted" })

/** An inclusion or credit as read: the amount in its own currency. */
export const Inclusion = Schema.Struct({
  id: Id,
  label: Schema.String,
  allocated_amount: Money,
  frequency: Schema.Literals(["perStay", "perNight", "perGuest", "perGuestPerNight"]),
  inclusion_kind: Schema.Literals(["perk", "credit"]),
  revenue_category: Schema.Literals(["room", "fnb", "spa", "excursions", "activities", "other"]),
  service_item_id: Schema.NullOr(Id),
  currency: CurrencyCode,
  included_quantity: Schema.Int
}).annotate({ identifier: "Inclusion" })

export const InclusionsReplaced = Schema.Struct({ rate_plan_id: Id, count: Schema.Int }).annotate({ identifier: "InclusionsReplacedCount" })

/** A promo code as read, with its live redemptions. */
export const PromoCode = Schema.Struct({
  id: Id,
  rate_plan_id: Id,
  code: Schema.String,
  valid_from: Schema.NullOr(Schema.String),
  valid_to: Schema.NullOr(Schema.String),
  max_redemptions: Schema.NullOr(Schema.Int),
  max_per_guest: Schema.NullOr(Schema.Int),
  is_active: Schema.Boolean,
  times_redeemed: Schema.Int,
  created_at: Timestamp
}).annotate({ identifier: "PromoCode" })

export const PromoCodeCreated = Schema.Struct({ promo_code_id: Id, code: Schema.String }).annotate({ identifier: "PromoCodeCreated" })
export const PromoCodeUpdated = Schema.Struct({ promo_code_id: Id, updated: Schema.Literal(true) }).annotate({ identifier: "PromoCodeUpdated" })
export const PromoCodeDeleted = Schema.Struct({ promo_code_id: Id, deleted: Schema.Literal(true) }).annotate({ identifier: "PromoCodeDeleted" })
