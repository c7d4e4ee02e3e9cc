import * as SqlClient from "effect/sql/SqlClient"
import type { Rates } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { withSpan } from "../database/Span.js"

// The catalogue's rows (NUMERIC as text). The pricing snapshot (./PricingInputs.ts) reads the same rows, so
// both are typed here.

export interface PropertyRow {
  readonly id: string
  readonly code: string
  readonly name: string
  readonly timezone: string
  readonly base_currency: string
  readonly loyalty_points_per_usd: number
  readonly cancellation_policy: ReadonlyArray<Rates.RatePlan.CancellationTier>
  readonly default_rate_plan_id: string | null
}

export interface CurrencyRow {
  readonly currency: string
  readonly rate_to_base: string
}

export interface AgeBracketRow {
  readonly max_age: number
  readonly extra_guest_percent: string
}

export interface TaxRow {
  readonly code: string
  readonly name: string
  readonly kind: string
  readonly value: string
  readonly applies_to: string | null
  readonly max_nights: number | null
  readonly exempt_under_age: number | null
}

export interface RoomTypeRow {
  readonly id: string
  readonly code: string
  readonly name: string
  readonly base_occupancy: number
  readonly max_occupancy: number
  readonly bed_configs: ReadonlyArray<string>
  readonly rooms: ReadonlyArray<{ readonly id: string; readonly number: string }>
}

export interface ModifierRow {
  readonly key: string
  readonly label: string
  readonly type: string
  readonly options?: ReadonlyArray<string>
  readonly required: boolean
}

/** A service's own tax (jsonb as the import writes it): the limits only where the file gives them. */
export interface ServiceTaxRow {
  readonly kind: string
  readonly value: string
  readonly max_nights?: number | null
  readonly exempt_under_age?: number | null
}

export interface ServiceRow {
  readonly id: string
  readonly code: string
  readonly name: string
  readonly price: string
  readonly pricing_unit: string
  readonly revenue_category: string
  readonly guest_bookable: boolean
  readonly tax: ServiceTaxRow | null
  readonly modifiers: ReadonlyArray<ModifierRow>
}

export interface PropertyDetails {
  readonly property: PropertyRow
  readonly currencies: ReadonlyArray<CurrencyRow>
  readonly ageBrackets: ReadonlyArray<AgeBracketRow>
  readonly taxes: ReadonlyArray<TaxRow>
}

/** A property's services in catalogue order (position, code). */
export const serviceRows = (sql: SqlClient.SqlClient, propertyId: string) =>
  sql<ServiceRow>`
    SELECT id, code, name, price::text AS price, pricing_unit, revenue_category, guest_bookable, tax, modifiers
    FROM services WHERE property_id = ${propertyId}
    ORDER BY position, code`

/** Reads of a property's catalogue: the property itself, room types with rooms, services. */
export class CatalogRepository extends Context.Service<CatalogRepository>()("@hotel/persistence/catalog/CatalogRepository", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const property = (propertyId: string) =>
      sql<PropertyRow>`
        SELECT p.id, p.code, p.name, p.timezone, p.base_currency, p.loyalty_points_per_usd, p.cancellation_policy,
               (SELECT rp.id FROM rate_plans rp
                 WHERE rp.property_id = p.id AND rp.is_default AND rp.deleted_at IS NULL) AS default_rate_plan_id
        FROM properties p WHERE p.id = ${propertyId}`.pipe(
        Effect.map((rows) => Option.fromNullishOr(rows[0])),
        Effect.orDie,
        withSpan("CatalogRepository.property")
      )

    const details = (propertyId: string) =>
      Effect.gen(function*() {
        const found = yield* property(propertyId)
        if (Option.isNone(found)) return Option.none<PropertyDetails>()
        const [currencies, ageBrackets, taxes] = yield* Effect.all([
          sql<CurrencyRow>`SELECT currency, rate_to_base::text AS rate_to_base FROM property_currencies
                           WHERE property_id = ${propertyId} ORDER BY currency`,
          sql<AgeBracketRow>`SELECT max_age, extra_guest_percent::text AS extra_guest_percent FROM age_brackets
                             WHERE property_id = ${propertyId} ORDER BY max_age`,
          sql<TaxRow>`SELECT code, name, kind, value::text AS value, applies_to, max_nights, exempt_under_age
                      FROM taxes WHERE property_id = ${propertyId} ORDER BY position, code`
        ]).pipe(Effect.orDie)
        return Option.some<PropertyDetails>({ property: found.value, currencies, ageBrackets, taxes })
      }).pipe(withSpan("CatalogRepository.details"))

    const roomTypes = (propertyId: string) =>
      sql<RoomTypeRow>`
        SELECT rt.id, rt.code, rt.name, rt.base_occupancy, rt.max_occupancy, rt.bed_configs,
               COALESCE((SELECT json_agg(json_build_object('id', r.id, 'number', r.number) ORDER BY r.number)
                         FROM rooms r WHERE r.room_type_id = rt.id AND NOT r.retired), '[]') AS rooms
        FROM room_types rt WHERE rt.property_id = ${propertyId}
        ORDER BY rt.position, rt.code`.pipe(Effect.orDie, withSpan("CatalogRepository.roomTypes"))

    const services = (propertyId: string) =>
      serviceRows(sql, propertyId).pipe(Effect.orDie, withSpan("CatalogRepository.services"))

    return { property, details, roomTypes, services } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
