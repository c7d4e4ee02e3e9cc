import { type Pricing, Visibility } from "@hotel/domain"
import { buildPlans } from "./chains.js"
import { toInclusion, toProperty, toPromoCode, toRoomType, toService } from "./mappers.js"
import { oneOf } from "./oneOf.js"
import type {
  InclusionPricingRow,
  IntervalPricingRow,
  NightPricingRow,
  PlanPricingRow,
  PromoCodePricingRow,
  PropertyPricingRow,
  RoomTypePricingRow,
  ServicePricingRow
} from "./rows.js"
import type { PricingSnapshot, SnapshotPlan } from "./snapshot.js"

/** Assembles a snapshot from loaded rows (pure). */
export const makeSnapshot = (input: {
  readonly now: Date
  readonly property: PropertyPricingRow
  readonly roomTypes: ReadonlyArray<RoomTypePricingRow>
  readonly plans: ReadonlyArray<PlanPricingRow>
  readonly intervals: ReadonlyArray<IntervalPricingRow>
  readonly inclusions: ReadonlyArray<InclusionPricingRow>
  readonly services: ReadonlyArray<ServicePricingRow>
  readonly promoCodes: ReadonlyArray<PromoCodePricingRow>
  readonly nights: ReadonlyArray<NightPricingRow>
  readonly guestFound: boolean | undefined
}): PricingSnapshot => {
  const property = toProperty(input.property)
  const models = buildPlans(input.plans, input.intervals, input.nights)
  const inclusionsByPlan = new Map<string, Array<Pricing.Inclusion>>()
  for (const row of input.inclusions) {
    const list = inclusionsByPlan.get(row.rate_plan_id) ?? []
    list.push(toInclusion(row))
    inclusionsByPlan.set(row.rate_plan_id, list)
  }
  const plans = input.plans.flatMap((row): Array<SnapshotPlan> => {
    const model = models.get(row.id)
    if (row.deleted || model === undefined) return []
    return [{
      id: row.id,
      code: row.code,
      name: row.name,
      publicName: row.public_name,
      kind: oneOf("plan kind", ["standard", "promotion"] as const, row.kind),
      isDefault: row.is_default,
      roomTypeId: row.room_type_id,
      currency: row.currency,
      model,
      inclusions: inclusionsByPlan.get(row.id) ?? []
    }]
  })
  const roomTypes = input.roomTypes.map(toRoomType)
  const services = input.services.map(toService)
  return {
    now: input.now,
    today: Visibility.localToday(input.now, property.timezone),
    property,
    roomTypes,
    plans,
    services,
    promoCodes: input.promoCodes.map(toPromoCode),
    roomTypesById: new Map(roomTypes.map((r) => [r.id, r])),
    plansById: new Map(plans.map((p) => [p.id, p])),
    servicesById: new Map(services.map((s) => [s.id, s])),
    guestFound: input.guestFound
  }
}
