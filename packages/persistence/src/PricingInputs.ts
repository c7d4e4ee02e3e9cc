import * as SqlClient from "@effect/sql/SqlClient"
import { Money, Pricing, Visibility } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

// Everything the pricing engine and the visibility rule need for one property, loaded in a FIXED number of
// queries (7, whatever the number of plans, intervals, codes or nights): the property with its currencies,
// age brackets and taxes; room types; the live rate plans and every ancestor they derive from (one recursive
// query; chains are built in memory); their intervals; their inclusions; services; promo codes with live
// redemption counts. It only uses `SqlClient`, so inside `sql.withTransaction` it reads in that transaction.

// ---------------------------------------------------------------------------------------------------------
// Snapshot types (the engine's model plus what the API shows or the booking flow needs)

export interface SnapshotProperty {
  readonly id: string
  readonly code: string
  readonly name: string
  readonly timezone: string
  readonly baseCurrency: string
  readonly loyaltyPointsPerUsd: number
  /** The engine's view: base currency, exchange rates, age brackets, taxes, default cancellation policy. */
  readonly pricing: Pricing.PricingProperty
}

export interface SnapshotRoomType extends Pricing.RoomType {
  readonly id: string
  readonly code: string
  readonly name: string
  readonly bedConfigs: ReadonlyArray<string>
}

export interface SnapshotPlan {
  readonly id: string
  readonly code: string | null
  readonly name: string
  readonly publicName: string | null
  readonly kind: "standard" | "promotion"
  readonly isDefault: boolean
  readonly roomTypeId: string
  readonly currency: string
  /** The engine's plan; `derivation.parent` is the loaded parent, recursively. */
  readonly model: Pricing.RatePlan
  /** The plan's own inclusions, in stored order. */
  readonly inclusions: ReadonlyArray<Pricing.Inclusion>
}

export interface SnapshotModifier {
  readonly key: string
  readonly label: string
  readonly type: string
  readonly options?: ReadonlyArray<string>
  readonly required: boolean
}

export interface SnapshotService {
  readonly id: string
  readonly code: string
  readonly guestBookable: boolean
  readonly modifiers: ReadonlyArray<SnapshotModifier>
  /** The engine's service: price in the base currency, pricing unit, category, own tax rule. */
  readonly model: Pricing.Service
}

export interface PricingSnapshot {
  /** The instant redemption counts were taken at. */
  readonly now: Date
  /** The property's local date at `now` (decisions 2). */
  readonly today: Pricing.IsoDate
  readonly property: SnapshotProperty
  /** In catalogue order (position, code). */
  readonly roomTypes: ReadonlyArray<SnapshotRoomType>
  /**
   * Live (not deleted) plans in creation order. A deleted ancestor of a live plan is reachable only through
   * `model.derivation.parent` (with `deleted: true`, so the visibility rule hides its descendants).
   */
  readonly plans: ReadonlyArray<SnapshotPlan>
  readonly services: ReadonlyArray<SnapshotService>
  /** Live (not deleted) codes of the loaded plans and their ancestors, with live redemption counts. */
  readonly promoCodes: ReadonlyArray<Visibility.PromoCodeState>
  readonly roomTypesById: ReadonlyMap<string, SnapshotRoomType>
  readonly plansById: ReadonlyMap<string, SnapshotPlan>
  readonly servicesById: ReadonlyMap<string, SnapshotService>
}

export interface LoadOptions {
  /** Counts this guest's live redemptions of each code too (`max_per_guest`); quotes know no guest. */
  readonly guestId?: string | null | undefined
}

/** Lookups on a snapshot (Option, so callers decide which 404 a miss is). */
export const roomTypeOf = (snapshot: PricingSnapshot, id: string): Option.Option<SnapshotRoomType> =>
  Option.fromNullable(snapshot.roomTypesById.get(id))

export const planOf = (snapshot: PricingSnapshot, id: string): Option.Option<SnapshotPlan> =>
  Option.fromNullable(snapshot.plansById.get(id))

export const serviceOf = (snapshot: PricingSnapshot, id: string): Option.Option<SnapshotService> =>
  Option.fromNullable(snapshot.servicesById.get(id))

// ---------------------------------------------------------------------------------------------------------
// Rows (NUMERIC as text, DATE as `YYYY-MM-DD` text)

type PolicyJson = ReadonlyArray<{ readonly days_before_arrival: number; readonly refund_percent: number }>

export interface PropertyPricingRow {
  readonly id: string
  readonly code: string
  readonly name: string
  readonly timezone: string
  readonly base_currency: string
  readonly loyalty_points_per_usd: number
  readonly cancellation_policy: PolicyJson
  readonly currencies: ReadonlyArray<{ readonly currency: string; readonly rate_to_base: string }>
  readonly age_brackets: ReadonlyArray<{ readonly max_age: number; readonly extra_guest_percent: string }>
  readonly taxes: ReadonlyArray<{
    readonly code: string
    readonly name: string
    readonly kind: string
    readonly value: string
    readonly applies_to: string | null
    readonly max_nights: number | null
    readonly exempt_under_age: number | null
  }>
}

export interface RoomTypePricingRow {
  readonly id: string
  readonly code: string
  readonly name: string
  readonly base_occupancy: number
  readonly max_occupancy: number
  readonly bed_configs: ReadonlyArray<string>
}

export interface PlanPricingRow {
  readonly id: string
  readonly code: string | null
  readonly room_type_id: string
  readonly name: string
  readonly public_name: string | null
  readonly base_price: string
  readonly currency: string
  readonly extra_guest_charge: string
  readonly single_guest_discount: string
  readonly single_guest_discount_type: string
  readonly min_los: number | null
  readonly max_los: number | null
  readonly booking_window_start: string | null
  readonly booking_window_end: string | null
  readonly stay_window_start: string | null
  readonly stay_window_end: string | null
  readonly active_for_booking_engine: boolean
  readonly active_for_channels: boolean
  readonly kind: string
  readonly derived_from_id: string | null
  readonly derivation_type: string | null
  readonly derivation_value: string | null
  readonly is_active: boolean
  readonly is_default: boolean
  readonly requires_promo_code: boolean
  readonly cancellation_policy: PolicyJson | null
  readonly deleted: boolean
}

export interface IntervalPricingRow {
  readonly id: string
  readonly rate_plan_id: string
  readonly name: string
  readonly start_date: string
  readonly end_date: string
  readonly price_mon: string | null
  readonly price_tue: string | null
  readonly price_wed: string | null
  readonly price_thu: string | null
  readonly price_fri: string | null
  readonly price_sat: string | null
  readonly price_sun: string | null
  readonly min_stay: number | null
  readonly max_stay: number | null
  readonly closed_to_arrival: boolean
  readonly closed_to_departure: boolean
  readonly stop_sell: boolean
  readonly extra_guest_charge: string
  readonly single_guest_discount: string
}

export interface InclusionPricingRow {
  readonly rate_plan_id: string
  readonly label: string
  readonly allocated_amount: string
  readonly frequency: string
  readonly inclusion_kind: string
  readonly revenue_category: string
  readonly service_item_id: string | null
  readonly currency: string
  readonly included_quantity: number
}

export interface ServicePricingRow {
  readonly id: string
  readonly code: string
  readonly name: string
  readonly price: string
  readonly pricing_unit: string
  readonly revenue_category: string
  readonly guest_bookable: boolean
  readonly tax: {
    readonly kind: string
    readonly value: string | number
    readonly max_nights?: number | null
    readonly exempt_under_age?: number | null
  } | null
  readonly modifiers: ReadonlyArray<SnapshotModifier>
}

export interface PromoCodePricingRow {
  readonly id: string
  readonly rate_plan_id: string
  readonly code: string
  readonly valid_from: string | null
  readonly valid_to: string | null
  readonly max_redemptions: number | null
  readonly max_per_guest: number | null
  readonly is_active: boolean
  readonly redemptions: number
  readonly guest_redemptions: number | null
}

// ---------------------------------------------------------------------------------------------------------
// Row → model mappers (pure; exported for the booking flow and tests)

/** Stored values are validated on the way in; anything else is a broken database, hence a defect. */
const oneOf = <const T extends string>(what: string, allowed: ReadonlyArray<T>, value: string): T => {
  const found = allowed.find((candidate) => candidate === value)
  if (found === undefined) throw new Error(`unexpected ${what} ${JSON.stringify(value)} in the database`)
  return found
}

const FREQUENCIES = ["perStay", "perNight", "perGuest", "perGuestPerNight"] as const
const TAX_KINDS = ["percent", "perStay", "perNight", "perGuestPerNight"] as const
const DERIVATIONS = ["percent", "fixed", "perPerson"] as const

const amountOrNull = (value: string | null): Money.Amount | null => (value === null ? null : Money.fromDb(value))

export const toPolicy = (json: PolicyJson): ReadonlyArray<Pricing.CancellationTier> =>
  json.map((tier) => ({ daysBeforeArrival: tier.days_before_arrival, refundPercent: tier.refund_percent }))

export const toProperty = (row: PropertyPricingRow): SnapshotProperty => ({
  id: row.id,
  code: row.code,
  name: row.name,
  timezone: row.timezone,
  baseCurrency: row.base_currency,
  loyaltyPointsPerUsd: row.loyalty_points_per_usd,
  pricing: {
    baseCurrency: row.base_currency,
    exchangeRates: row.currencies.map((c) => ({ currency: c.currency, rateToBase: Money.fromDb(c.rate_to_base) })),
    ageBrackets: row.age_brackets.map((b) => ({ maxAge: b.max_age, extraGuestPercent: Money.fromDb(b.extra_guest_percent) })),
    taxes: row.taxes.map((t): Pricing.Tax => ({
      code: t.code,
      name: t.name,
      kind: oneOf("tax kind", TAX_KINDS, t.kind),
      value: Money.fromDb(t.value),
      appliesTo: t.applies_to === null ? null : oneOf("tax applies_to", ["room", "addons"] as const, t.applies_to),
      maxNights: t.max_nights,
      exemptUnderAge: t.exempt_under_age
    })),
    cancellationPolicy: toPolicy(row.cancellation_policy)
  }
})

export const toRoomType = (row: RoomTypePricingRow): SnapshotRoomType => ({
  id: row.id,
  code: row.code,
  name: row.name,
  baseOccupancy: row.base_occupancy,
  maxOccupancy: row.max_occupancy,
  bedConfigs: row.bed_configs
})

export const toInterval = (row: IntervalPricingRow): Pricing.Interval => ({
  id: row.id,
  name: row.name,
  startDate: row.start_date,
  endDate: row.end_date,
  prices: {
    mon: amountOrNull(row.price_mon),
    tue: amountOrNull(row.price_tue),
    wed: amountOrNull(row.price_wed),
    thu: amountOrNull(row.price_thu),
    fri: amountOrNull(row.price_fri),
    sat: amountOrNull(row.price_sat),
    sun: amountOrNull(row.price_sun)
  },
  minStay: row.min_stay,
  maxStay: row.max_stay,
  closedToArrival: row.closed_to_arrival,
  closedToDeparture: row.closed_to_departure,
  stopSell: row.stop_sell,
  extraGuestCharge: Money.fromDb(row.extra_guest_charge),
  singleGuestDiscount: Money.fromDb(row.single_guest_discount)
})

export const toInclusion = (row: InclusionPricingRow): Pricing.Inclusion => ({
  label: row.label,
  allocatedAmount: Money.fromDb(row.allocated_amount),
  frequency: oneOf("inclusion frequency", FREQUENCIES, row.frequency),
  inclusionKind: oneOf("inclusion kind", ["perk", "credit"] as const, row.inclusion_kind),
  revenueCategory: row.revenue_category,
  serviceItemId: row.service_item_id,
  currency: row.currency,
  includedQuantity: row.included_quantity
})

export const toService = (row: ServicePricingRow): SnapshotService => ({
  id: row.id,
  code: row.code,
  guestBookable: row.guest_bookable,
  modifiers: row.modifiers,
  model: {
    id: row.id,
    name: row.name,
    price: Money.fromDb(row.price),
    pricingUnit: oneOf("service pricing unit", FREQUENCIES, row.pricing_unit),
    revenueCategory: row.revenue_category,
    tax: row.tax === null ? null : {
      kind: oneOf("service tax kind", TAX_KINDS, row.tax.kind),
      value: Money.fromDb(String(row.tax.value)),
      maxNights: row.tax.max_nights ?? null,
      exemptUnderAge: row.tax.exempt_under_age ?? null
    }
  }
})

export const toPromoCode = (row: PromoCodePricingRow): Visibility.PromoCodeState => ({
  id: row.id,
  ratePlanId: row.rate_plan_id,
  code: row.code,
  isActive: row.is_active,
  deleted: false,
  validFrom: row.valid_from,
  validTo: row.valid_to,
  maxRedemptions: row.max_redemptions,
  maxPerGuest: row.max_per_guest,
  redemptions: row.redemptions,
  guestRedemptions: row.guest_redemptions
})

/**
 * Builds every plan's engine model with its derivation chain, in memory. A plan whose chain cannot be built
 * (a parent that is not loaded, or a cycle, both refused by the write path) is marked deleted, so the
 * visibility rule hides it instead of the engine looping or pricing from a wrong parent.
 */
export const buildPlans = (
  rows: ReadonlyArray<PlanPricingRow>,
  intervals: ReadonlyArray<IntervalPricingRow>
): ReadonlyMap<string, Pricing.RatePlan> => {
  const rowsById = new Map(rows.map((row) => [row.id, row]))
  const intervalsByPlan = new Map<string, Array<Pricing.Interval>>()
  for (const interval of intervals) {
    const list = intervalsByPlan.get(interval.rate_plan_id) ?? []
    list.push(toInterval(interval))
    intervalsByPlan.set(interval.rate_plan_id, list)
  }
  const built = new Map<string, Pricing.RatePlan>()
  const visiting = new Set<string>()

  const base = (row: PlanPricingRow, broken: boolean): Omit<Pricing.RatePlan, "derivation"> => ({
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
    cancellationPolicy: row.cancellation_policy === null ? null : toPolicy(row.cancellation_policy)
  })

  const build = (row: PlanPricingRow): Pricing.RatePlan => {
    const done = built.get(row.id)
    if (done !== undefined) return done
    let plan: Pricing.RatePlan
    if (row.derived_from_id === null) {
      plan = { ...base(row, false), derivation: null }
    } else {
      const parentRow = rowsById.get(row.derived_from_id)
      const type = row.derivation_type
      if (parentRow === undefined || visiting.has(parentRow.id) || type === null || row.derivation_value === null) {
        plan = { ...base(row, true), derivation: null }
      } else {
        visiting.add(row.id)
        const parent = build(parentRow)
        visiting.delete(row.id)
        plan = {
          ...base(row, false),
          derivation: {
            type: oneOf("derivation type", DERIVATIONS, type),
            value: Money.fromDb(row.derivation_value),
            parent
          }
        }
      }
    }
    built.set(row.id, plan)
    return plan
  }

  rows.forEach(build)
  return built
}

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
}): PricingSnapshot => {
  const property = toProperty(input.property)
  const models = buildPlans(input.plans, input.intervals)
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
    servicesById: new Map(services.map((s) => [s.id, s]))
  }
}

// ---------------------------------------------------------------------------------------------------------
// The service

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export class PricingInputs extends Effect.Service<PricingInputs>()("@hotel/persistence/PricingInputs", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const propertyRow = (propertyId: string) =>
      sql<PropertyPricingRow>`
        SELECT p.id, p.code, p.name, p.timezone, p.base_currency, p.loyalty_points_per_usd, p.cancellation_policy,
          COALESCE((SELECT json_agg(json_build_object('currency', c.currency, 'rate_to_base', c.rate_to_base::text)
                                    ORDER BY c.currency)
                    FROM property_currencies c WHERE c.property_id = p.id), '[]') AS currencies,
          COALESCE((SELECT json_agg(json_build_object('max_age', b.max_age,
                                                      'extra_guest_percent', b.extra_guest_percent::text)
                                    ORDER BY b.max_age)
                    FROM age_brackets b WHERE b.property_id = p.id), '[]') AS age_brackets,
          COALESCE((SELECT json_agg(json_build_object('code', t.code, 'name', t.name, 'kind', t.kind,
                                                      'value', t.value::text, 'applies_to', t.applies_to,
                                                      'max_nights', t.max_nights,
                                                      'exempt_under_age', t.exempt_under_age)
                                    ORDER BY t.position, t.code)
                    FROM taxes t WHERE t.property_id = p.id), '[]') AS taxes
        FROM properties p WHERE p.id = ${propertyId}`

    const roomTypeRows = (propertyId: string) =>
      sql<RoomTypePricingRow>`
        SELECT id, code, name, base_occupancy, max_occupancy, bed_configs
        FROM room_types WHERE property_id = ${propertyId}
        ORDER BY position, code`

    /** The live plans (or one plan) and every ancestor they derive from, deleted or not, in one query. */
    const planRows = (propertyId: string, onlyPlanId: string | null) =>
      sql<PlanPricingRow>`
        WITH RECURSIVE chain (id, parent_id) AS (
          SELECT id, derived_from_id FROM rate_plans
          WHERE property_id = ${propertyId} AND deleted_at IS NULL
            AND (${onlyPlanId}::uuid IS NULL OR id = ${onlyPlanId}::uuid)
          UNION
          SELECT rp.id, rp.derived_from_id FROM rate_plans rp JOIN chain c ON rp.id = c.parent_id
          WHERE rp.property_id = ${propertyId}
        )
        SELECT id, code, room_type_id, name, public_name, base_price::text AS base_price, currency,
               extra_guest_charge::text AS extra_guest_charge, single_guest_discount::text AS single_guest_discount,
               single_guest_discount_type, min_los, max_los, booking_window_start, booking_window_end,
               stay_window_start, stay_window_end, active_for_booking_engine, active_for_channels, kind,
               derived_from_id, derivation_type, derivation_value::text AS derivation_value, is_active, is_default,
               requires_promo_code, cancellation_policy, deleted_at IS NOT NULL AS deleted
        FROM rate_plans
        WHERE property_id = ${propertyId} AND id IN (SELECT id FROM chain)
        ORDER BY created_at, id`

    const intervalRows = (propertyId: string, planIds: ReadonlyArray<string>) =>
      sql<IntervalPricingRow>`
        SELECT id, rate_plan_id, name, start_date, end_date,
               price_mon::text AS price_mon, price_tue::text AS price_tue, price_wed::text AS price_wed,
               price_thu::text AS price_thu, price_fri::text AS price_fri, price_sat::text AS price_sat,
               price_sun::text AS price_sun, min_stay, max_stay, closed_to_arrival, closed_to_departure, stop_sell,
               extra_guest_charge::text AS extra_guest_charge, single_guest_discount::text AS single_guest_discount
        FROM rate_plan_intervals
        WHERE property_id = ${propertyId} AND rate_plan_id = ANY(${planIds}::uuid[])
        ORDER BY rate_plan_id, start_date, id`

    const inclusionRows = (planIds: ReadonlyArray<string>) =>
      sql<InclusionPricingRow>`
        SELECT rate_plan_id, label, allocated_amount::text AS allocated_amount, frequency, inclusion_kind,
               revenue_category, service_item_id, currency, included_quantity
        FROM rate_plan_inclusions
        WHERE rate_plan_id = ANY(${planIds}::uuid[])
        ORDER BY rate_plan_id, position`

    const serviceRows = (propertyId: string) =>
      sql<ServicePricingRow>`
        SELECT id, code, name, price::text AS price, pricing_unit, revenue_category, guest_bookable, tax, modifiers
        FROM services WHERE property_id = ${propertyId}
        ORDER BY position, code`

    /**
     * Live codes of the plans with their live redemptions: reservations booked with the code that are a hold
     * not yet expired at `now`, or confirmed or later (cancelled and expired holds free it).
     */
    const promoCodeRows = (propertyId: string, planIds: ReadonlyArray<string>, now: Date, guestId: string | null) =>
      sql<PromoCodePricingRow>`
        SELECT pc.id, pc.rate_plan_id, pc.code, pc.valid_from, pc.valid_to, pc.max_redemptions, pc.max_per_guest,
               pc.is_active,
               count(r.id)::int AS redemptions,
               CASE WHEN ${guestId}::uuid IS NULL THEN NULL
                    ELSE (count(r.id) FILTER (WHERE r.guest_id = ${guestId}::uuid))::int END AS guest_redemptions
        FROM promo_codes pc
        LEFT JOIN reservations r
          ON r.promo_code_id = pc.id AND r.property_id = pc.property_id
         AND (r.status IN ('confirmed', 'checked_in', 'checked_out', 'no_show')
              OR (r.status = 'tentative' AND r.hold_expires_at > ${now}))
        WHERE pc.property_id = ${propertyId} AND pc.deleted_at IS NULL AND pc.rate_plan_id = ANY(${planIds}::uuid[])
        GROUP BY pc.id
        ORDER BY pc.rate_plan_id, pc.code`

    const loadWith = (propertyId: string, onlyPlanId: string | null, now: Date, options: LoadOptions) =>
      Effect.gen(function*() {
        if (!UUID.test(propertyId)) return Option.none<PricingSnapshot>()
        const [property] = yield* propertyRow(propertyId)
        if (property === undefined) return Option.none<PricingSnapshot>()
        const guestId = options.guestId != null && UUID.test(options.guestId) ? options.guestId : null
        const roomTypes = yield* roomTypeRows(propertyId)
        const plans = onlyPlanId !== null && !UUID.test(onlyPlanId) ? [] : yield* planRows(propertyId, onlyPlanId)
        const planIds = plans.map((plan) => plan.id)
        const intervals = yield* intervalRows(propertyId, planIds)
        const inclusions = yield* inclusionRows(planIds)
        const services = yield* serviceRows(propertyId)
        const promoCodes = yield* promoCodeRows(propertyId, planIds, now, guestId)
        return Option.some(makeSnapshot({ now, property, roomTypes, plans, intervals, inclusions, services, promoCodes }))
      }).pipe(Effect.orDie)

    /**
     * Everything for pricing any plan of the property at `now` (from `Clock`). None when the property does not
     * exist. Runs in the caller's transaction when inside `sql.withTransaction`.
     */
    const load = (propertyId: string, now: Date, options: LoadOptions = {}) =>
      loadWith(propertyId, null, now, options).pipe(Effect.withSpan("PricingInputs.load"))

    /**
     * The same snapshot restricted to one live plan and its ancestors (`plans` holds that plan and its live
     * ancestors; `plansById.get(planId)` is None when it is not a live plan of the property). Same number of
     * queries, less data. For the booking flow: price and check one plan.
     */
    const loadForPlan = (propertyId: string, planId: string, now: Date, options: LoadOptions = {}) =>
      loadWith(propertyId, planId, now, options).pipe(Effect.withSpan("PricingInputs.loadForPlan"))

    /**
     * Locks (FOR UPDATE, in id order) the live promo codes of a plan and its ancestors, so that a booking
     * transaction that then loads the snapshot sees redemption counts no concurrent booking can overtake
     * (the caps of decisions 4). Call it inside `sql.withTransaction`, before `loadForPlan`.
     */
    const lockPromoCodes = (propertyId: string, planId: string) =>
      (UUID.test(propertyId) && UUID.test(planId)
        ? sql`
            WITH RECURSIVE chain (id, parent_id) AS (
              SELECT id, derived_from_id FROM rate_plans WHERE property_id = ${propertyId} AND id = ${planId}
              UNION
              SELECT rp.id, rp.derived_from_id FROM rate_plans rp JOIN chain c ON rp.id = c.parent_id
              WHERE rp.property_id = ${propertyId}
            )
            SELECT id FROM promo_codes
            WHERE property_id = ${propertyId} AND deleted_at IS NULL AND rate_plan_id IN (SELECT id FROM chain)
            ORDER BY id
            FOR UPDATE`.pipe(Effect.asVoid)
        : Effect.void).pipe(Effect.orDie, Effect.withSpan("PricingInputs.lockPromoCodes"))

    return { load, loadForPlan, lockPromoCodes } as const
  })
}) {}
