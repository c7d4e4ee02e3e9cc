import { decimal, discountFigure, money, moneyOrNull, timestamp } from "@hotel/domain/common/Format"
import type { RatePlanRow } from "./RatePlanRepository.js"

/** A rate plan as `GET /rate-plans/{id}` writes it and its events carry it. */
export const presentRatePlan = (plan: RatePlanRow) => ({
  id: plan.id,
  room_type_id: plan.room_type_id,
  name: plan.name,
  public_name: plan.public_name,
  description: plan.description,
  image_url: plan.image_url,
  base_price: money(plan.base_price, plan.currency),
  currency: plan.currency,
  extra_guest_charge: money(plan.extra_guest_charge, plan.currency),
  single_guest_discount: discountFigure(plan),
  single_guest_discount_type: plan.single_guest_discount_type,
  min_los: plan.min_los,
  max_los: plan.max_los,
  booking_window_start: plan.booking_window_start,
  booking_window_end: plan.booking_window_end,
  stay_window_start: plan.stay_window_start,
  stay_window_end: plan.stay_window_end,
  active_for_booking_engine: plan.active_for_booking_engine,
  active_for_channels: plan.active_for_channels,
  kind: plan.kind,
  derived_from_id: plan.derived_from_id,
  derivation_type: plan.derivation_type,
  derivation_value: plan.derivation_type === "percent" ? (plan.derivation_value === null ? null : decimal(plan.derivation_value)) : moneyOrNull(plan.derivation_value, plan.currency),
  is_active: plan.is_active,
  is_default: plan.is_default,
  requires_promo_code: plan.requires_promo_code,
  cancellation_policy: plan.cancellation_policy,
  created_at: timestamp(plan.created_at),
  updated_at: timestamp(plan.updated_at)
})
