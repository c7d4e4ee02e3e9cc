import { discountFigure, money, moneyOrNull, timestamp } from "@hotel/domain/common/Format"
import type { InclusionRow } from "./InclusionRepository.js"
import type { IntervalRow } from "./IntervalRepository.js"
import type { PromoCodeRow } from "./PromoCodeRepository.js"

// Intervals, inclusions and promo codes as their `GET`s write them and their events carry them.

/** Interval money is in its plan's currency; `single_guest_discount` follows the plan's discount type. */
export const presentInterval = (row: IntervalRow) => ({
  id: row.id,
  rate_plan_id: row.rate_plan_id,
  name: row.name,
  start_date: row.start_date,
  end_date: row.end_date,
  price_mon: moneyOrNull(row.price_mon, row.currency),
  price_tue: moneyOrNull(row.price_tue, row.currency),
  price_wed: moneyOrNull(row.price_wed, row.currency),
  price_thu: moneyOrNull(row.price_thu, row.currency),
  price_fri: moneyOrNull(row.price_fri, row.currency),
  price_sat: moneyOrNull(row.price_sat, row.currency),
  price_sun: moneyOrNull(row.price_sun, row.currency),
  min_stay: row.min_stay,
  max_stay: row.max_stay,
  closed_to_arrival: row.closed_to_arrival,
  closed_to_departure: row.closed_to_departure,
  stop_sell: row.stop_sell,
  extra_guest_charge: money(row.extra_guest_charge, row.currency),
  single_guest_discount: discountFigure(row),
  currency: row.currency,
  created_at: timestamp(row.created_at)
})

export const presentInclusion = (row: InclusionRow) => ({
  id: row.id,
  label: row.label,
  allocated_amount: money(row.allocated_amount, row.currency),
  frequency: row.frequency,
  inclusion_kind: row.inclusion_kind,
  revenue_category: row.revenue_category,
  service_item_id: row.service_item_id,
  currency: row.currency,
  included_quantity: row.included_quantity
})

export const presentPromoCode = (row: PromoCodeRow) => ({
  id: row.id,
  rate_plan_id: row.rate_plan_id,
  code: row.code,
  valid_from: row.valid_from,
  valid_to: row.valid_to,
  max_redemptions: row.max_redemptions,
  max_per_guest: row.max_per_guest,
  is_active: row.is_active,
  times_redeemed: row.times_redeemed,
  created_at: timestamp(row.created_at)
})
