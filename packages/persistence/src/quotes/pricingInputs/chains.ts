// Rate plans' derivation chains, built in memory from the loaded rows (one recursive query loads every live
// plan and all its ancestors, so no chain needs another round trip).
import { Money, type Pricing } from "@hotel/domain"
import { toInterval, toNightOverride, toPolicy } from "./mappers.js"
import { oneOf } from "./oneOf.js"
import type { IntervalPricingRow, NightPricingRow, PlanPricingRow } from "./rows.js"

const DERIVATIONS = ["percent", "fixed", "perPerson"] as const

/**
 * Builds every plan's engine model with its derivation chain, in memory. A plan whose chain cannot be built
 * (a parent that is not loaded, or a cycle, both refused by the write path) is marked deleted, so the
 * visibility rule hides it instead of the engine looping or pricing from a wrong parent.
 */
export const buildPlans = (
  rows: ReadonlyArray<PlanPricingRow>,
  intervals: ReadonlyArray<IntervalPricingRow>,
  nights: ReadonlyArray<NightPricingRow> = []
): ReadonlyMap<string, Pricing.RatePlan> => {
  const rowsById = new Map(rows.map((row) => [row.id, row]))
  const intervalsByPlan = new Map<string, Array<Pricing.Interval>>()
  for (const interval of intervals) {
    const list = intervalsByPlan.get(interval.rate_plan_id) ?? []
    list.push(toInterval(interval))
    intervalsByPlan.set(interval.rate_plan_id, list)
  }
  const nightsByPlan = new Map<string, Map<Pricing.IsoDate, Pricing.NightOverride>>()
  for (const row of nights) {
    const map = nightsByPlan.get(row.rate_plan_id) ?? new Map<Pricing.IsoDate, Pricing.NightOverride>()
    map.set(row.night, toNightOverride(row))
    nightsByPlan.set(row.rate_plan_id, map)
  }
  const built = new Map<string, Pricing.RatePlan>()
  const visiting = new Set<string>()

  // One literal with its derivation, not a spread of the rest and the derivation: on Node 20 a spread followed
  // by a property the spread object lacks costs about a microsecond (see scripts/bench/README.md).
  const planOf = (row: PlanPricingRow, broken: boolean, derivation: Pricing.RatePlan["derivation"]): Pricing.RatePlan => ({
    id: row.id,
    roomTypeId: row.room_type_id,
    currency: row.currency,
    basePrice: Money.fromDb(row.base_price),
    extraGuestCharge: Money.fromDb(row.extra_guest_charge),
    singleGuestDiscount: Money.fromDb(row.single_guest_discount),
    singleGuestDiscountType: oneOf("discount type", ["fixed", "percent"] as const, row.single_guest_discount_type),
    intervals: intervalsByPlan.get(row.id) ?? [],
    minLos: row.min_los,
    maxLos: row.max_los,
    bookingWindowStart: row.booking_window_start,
    bookingWindowEnd: row.booking_window_end,
    stayWindowStart: row.stay_window_start,
    stayWindowEnd: row.stay_window_end,
    isActive: row.is_active,
    deleted: row.deleted || broken,
    activeForBookingEngine: row.active_for_booking_engine,
    activeForChannels: row.active_for_channels,
    requiresPromoCode: row.requires_promo_code,
    cancellationPolicy: row.cancellation_policy === null ? null : toPolicy(row.cancellation_policy),
    derivation,
    nights: nightsByPlan.get(row.id) ?? null
  })

  const build = (row: PlanPricingRow): Pricing.RatePlan => {
    const done = built.get(row.id)
    if (done !== undefined) return done
    let plan: Pricing.RatePlan
    if (row.derived_from_id === null) {
      plan = planOf(row, false, null)
    } else {
      const parentRow = rowsById.get(row.derived_from_id)
      const type = row.derivation_type
      if (parentRow === undefined || visiting.has(parentRow.id) || type === null || row.derivation_value === null) {
        plan = planOf(row, true, null)
      } else {
        visiting.add(row.id)
        const parent = build(parentRow)
        visiting.delete(row.id)
        plan = planOf(row, false, {
          type: oneOf("derivation type", DERIVATIONS, type),
          value: Money.fromDb(row.derivation_value),
          parent
        })
      }
    }
    built.set(row.id, plan)
    return plan
  }

  rows.forEach(build)
  return built
}
