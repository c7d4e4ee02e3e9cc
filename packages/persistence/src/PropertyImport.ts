import * as SqlClient from "@effect/sql/SqlClient"
import type { PropertyFile, PropertyFileCancellationTier, PropertyFileInvalid, PropertyFileRatePlan } from "@hotel/domain"
import { decodePropertyFile, propertyFilePlanCurrency } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { stableId } from "./StableId.js"

/** What `hotel property import` prints: the ids of the property and of everything the file names, by code. */
export interface PropertyImportResult {
  readonly property_id: string
  readonly room_types: Readonly<Record<string, string>>
  readonly services: Readonly<Record<string, string>>
  readonly rate_plans: Readonly<Record<string, string>>
  readonly default_rate_plan_id: string
}

/** Tiers as stored (jsonb), most days first. */
const policyJson = (tiers: ReadonlyArray<PropertyFileCancellationTier>): string =>
  JSON.stringify(
    [...tiers]
      .sort((a, b) => b.days_before_arrival - a.days_before_arrival)
      .map((t) => ({ days_before_arrival: t.days_before_arrival, refund_percent: t.refund_percent }))
  )

/** Parents before the plans derived from them (the file is already checked for cycles and dangling parents). */
const parentsFirst = (plans: ReadonlyArray<PropertyFileRatePlan>): ReadonlyArray<PropertyFileRatePlan> => {
  const byCode = new Map(plans.map((p) => [p.code, p]))
  const done = new Set<string>()
  const ordered: Array<PropertyFileRatePlan> = []
  const visit = (plan: PropertyFileRatePlan, depth: number): void => {
    if (done.has(plan.code) || depth > plans.length) return
    const parent = plan.derived_from === undefined ? undefined : byCode.get(plan.derived_from)
    if (parent !== undefined) visit(parent, depth + 1)
    done.add(plan.code)
    ordered.push(plan)
  }
  plans.forEach((plan) => visit(plan, 0))
  return ordered
}

const orNull = <A>(value: A | undefined): A | null => (value === undefined ? null : value)

/**
 * Creates or updates a property from a property file (decisions 7.1), in one transaction. Everything is matched
 * by code (the property by `code`, its children by their codes within the property) and updated in place, so
 * importing the same file twice changes nothing. Rooms missing from the file are retired; taxes and age
 * brackets missing from it are removed (they are property rules the file states in full); currencies, room
 * types, services and rate plans missing from it are left as they are.
 */
export class PropertyImport extends Effect.Service<PropertyImport>()("@hotel/persistence/PropertyImport", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const upsertProperty = (file: PropertyFile, now: Date) =>
      sql<{ id: string }>`
        INSERT INTO properties (id, code, name, timezone, base_currency, loyalty_points_per_usd, cancellation_policy, created_at)
        VALUES (${stableId(file.code)}, ${file.code}, ${file.name}, ${file.timezone}, ${file.base_currency}, ${file.loyalty_points_per_usd},
                ${policyJson(file.cancellation_policy)}::jsonb, ${now})
        ON CONFLICT (code) DO UPDATE SET
          name = EXCLUDED.name,
          timezone = EXCLUDED.timezone,
          base_currency = EXCLUDED.base_currency,
          loyalty_points_per_usd = EXCLUDED.loyalty_points_per_usd,
          cancellation_policy = EXCLUDED.cancellation_policy
        RETURNING id`.pipe(Effect.map((rows) => rows[0].id))

    const importCurrencies = (propertyId: string, file: PropertyFile) =>
      Effect.forEach(file.currencies, (c) =>
        sql`
          INSERT INTO property_currencies (property_id, currency, rate_to_base)
          VALUES (${propertyId}, ${c.currency}, ${c.rate_to_base})
          ON CONFLICT (property_id, currency) DO UPDATE SET rate_to_base = EXCLUDED.rate_to_base`, { discard: true })

    const importAgeBrackets = (propertyId: string, file: PropertyFile) =>
      Effect.gen(function*() {
        const ages = file.age_brackets.map((b) => b.max_age)
        yield* sql`DELETE FROM age_brackets WHERE property_id = ${propertyId} AND NOT (max_age = ANY(${ages}::int[]))`
        yield* Effect.forEach(file.age_brackets, (b) =>
          sql`
            INSERT INTO age_brackets (property_id, max_age, extra_guest_percent)
            VALUES (${propertyId}, ${b.max_age}, ${b.extra_guest_percent})
            ON CONFLICT (property_id, max_age) DO UPDATE SET extra_guest_percent = EXCLUDED.extra_guest_percent`, {
          discard: true
        })
      })

    const importTaxes = (propertyId: string, file: PropertyFile) =>
      Effect.gen(function*() {
        const codes = file.taxes.map((t) => t.code)
        yield* sql`DELETE FROM taxes WHERE property_id = ${propertyId} AND NOT (code = ANY(${codes}::text[]))`
        yield* Effect.forEach(file.taxes, (tax, position) =>
          sql`
            INSERT INTO taxes (property_id, code, name, kind, value, applies_to, max_nights, exempt_under_age, position)
            VALUES (${propertyId}, ${tax.code}, ${tax.name}, ${tax.kind}, ${tax.value},
                    ${tax.kind === "percent" ? (tax.applies_to ?? "room") : null},
                    ${orNull(tax.max_nights)}, ${orNull(tax.exempt_under_age)}, ${position})
            ON CONFLICT (property_id, code) DO UPDATE SET
              name = EXCLUDED.name, kind = EXCLUDED.kind, value = EXCLUDED.value, applies_to = EXCLUDED.applies_to,
              max_nights = EXCLUDED.max_nights, exempt_under_age = EXCLUDED.exempt_under_age,
              position = EXCLUDED.position`, { discard: true })
      })

    const importRoomTypes = (propertyId: string, file: PropertyFile) =>
      Effect.gen(function*() {
        const ids: Record<string, string> = {}
        yield* Effect.forEach(file.room_types, (roomType, position) =>
          Effect.gen(function*() {
            const [row] = yield* sql<{ id: string }>`
              INSERT INTO room_types (id, property_id, code, name, description, base_occupancy, max_occupancy, bed_configs, position)
              VALUES (${stableId(file.code, "room_type", roomType.code)}, ${propertyId}, ${roomType.code}, ${roomType.name}, ${orNull(roomType.description)},
                      ${roomType.base_occupancy}, ${roomType.max_occupancy}, ${roomType.bed_configs}::text[], ${position})
              ON CONFLICT (property_id, code) DO UPDATE SET
                name = EXCLUDED.name, description = EXCLUDED.description, base_occupancy = EXCLUDED.base_occupancy,
                max_occupancy = EXCLUDED.max_occupancy, bed_configs = EXCLUDED.bed_configs, position = EXCLUDED.position
              RETURNING id`
            ids[roomType.code] = row.id
            // A room keeps its id by number: it moves to this room type and comes back into service if retired.
            yield* Effect.forEach(roomType.rooms, (number) =>
              sql`
                INSERT INTO rooms (id, property_id, room_type_id, number)
                VALUES (${stableId(file.code, "room", number)}, ${propertyId}, ${row.id}, ${number})
                ON CONFLICT (property_id, number) DO UPDATE SET room_type_id = EXCLUDED.room_type_id, retired = false
                WHERE rooms.room_type_id IS DISTINCT FROM EXCLUDED.room_type_id OR rooms.retired`, { discard: true })
          }), { discard: true })
        const numbers = file.room_types.flatMap((r) => r.rooms)
        yield* sql`
          UPDATE rooms SET retired = true
          WHERE property_id = ${propertyId} AND NOT retired AND NOT (number = ANY(${numbers}::text[]))`
        return ids
      })

    const importServices = (propertyId: string, file: PropertyFile) =>
      Effect.gen(function*() {
        const ids: Record<string, string> = {}
        yield* Effect.forEach(file.services, (service, position) =>
          Effect.gen(function*() {
            const tax = service.tax === undefined ? null : JSON.stringify({
              kind: service.tax.kind,
              value: service.tax.value,
              ...(service.tax.max_nights === undefined ? {} : { max_nights: service.tax.max_nights }),
              ...(service.tax.exempt_under_age === undefined ? {} : { exempt_under_age: service.tax.exempt_under_age })
            })
            const modifiers = JSON.stringify(service.modifiers.map((m) => ({
              key: m.key,
              label: m.label,
              type: m.type,
              ...(m.options === undefined ? {} : { options: m.options }),
              required: m.required
            })))
            const [row] = yield* sql<{ id: string }>`
              INSERT INTO services (id, property_id, code, name, description, price, pricing_unit, revenue_category,
                                    guest_bookable, tax, modifiers, position)
              VALUES (${stableId(file.code, "service", service.code)}, ${propertyId}, ${service.code}, ${service.name}, ${orNull(service.description)}, ${service.price},
                      ${service.pricing_unit}, ${service.revenue_category}, ${service.guest_bookable}, ${tax}::jsonb,
                      ${modifiers}::jsonb, ${position})
              ON CONFLICT (property_id, code) DO UPDATE SET
                name = EXCLUDED.name, description = EXCLUDED.description, price = EXCLUDED.price,
                pricing_unit = EXCLUDED.pricing_unit, revenue_category = EXCLUDED.revenue_category,
                guest_bookable = EXCLUDED.guest_bookable, tax = EXCLUDED.tax, modifiers = EXCLUDED.modifiers,
                position = EXCLUDED.position
              RETURNING id`
            ids[service.code] = row.id
          }), { discard: true })
        return ids
      })

    const importRatePlans = (
      propertyId: string,
      file: PropertyFile,
      roomTypeIds: Readonly<Record<string, string>>,
      now: Date
    ) =>
      Effect.gen(function*() {
        const defaultPlan = file.rate_plans.find((p) => p.default)
        // The unique "one default per property" index: step the old default down before the new one is set.
        yield* sql`
          UPDATE rate_plans SET is_default = false, updated_at = ${now}
          WHERE property_id = ${propertyId} AND is_default AND code IS DISTINCT FROM ${orNull(defaultPlan?.code)}`
        const ids: Record<string, string> = {}
        const position = new Map(file.rate_plans.map((p, i) => [p.code, i]))
        yield* Effect.forEach(parentsFirst(file.rate_plans), (plan) =>
          Effect.gen(function*() {
            const parentId = plan.derived_from === undefined ? null : ids[plan.derived_from]
            // Plans created together keep the file's order in lists ordered by creation time.
            const createdAt = new Date(now.getTime() + (position.get(plan.code) ?? 0))
            const policy = plan.cancellation_policy === undefined ? null : policyJson(plan.cancellation_policy)
            // The update only happens when something differs, so a re-import leaves `updated_at` alone.
            const rows = yield* sql<{ id: string }>`
              INSERT INTO rate_plans (
                id, property_id, code, room_type_id, name, public_name, description, image_url, base_price, currency,
                extra_guest_charge, single_guest_discount, single_guest_discount_type, min_los, max_los,
                booking_window_start, booking_window_end, stay_window_start, stay_window_end,
                active_for_booking_engine, active_for_channels, kind, derived_from_id, derivation_type,
                derivation_value, is_active, is_default, requires_promo_code, cancellation_policy, deleted_at,
                created_at, updated_at)
              VALUES (
                ${stableId(file.code, "rate_plan", plan.code)}, ${propertyId}, ${plan.code}, ${roomTypeIds[plan.room_type]}, ${plan.name}, ${orNull(plan.public_name)},
                ${orNull(plan.description)}, ${orNull(plan.image_url)}, ${plan.base_price},
                ${propertyFilePlanCurrency(file, plan)}, ${plan.extra_guest_charge ?? "0"}, ${plan.single_guest_discount ?? "0"},
                ${plan.single_guest_discount_type}, ${orNull(plan.min_los)}, ${orNull(plan.max_los)},
                ${orNull(plan.booking_window_start)}, ${orNull(plan.booking_window_end)},
                ${orNull(plan.stay_window_start)}, ${orNull(plan.stay_window_end)},
                ${plan.active_for_booking_engine}, ${plan.active_for_channels}, ${plan.kind}, ${parentId},
                ${orNull(plan.derivation_type)}, ${orNull(plan.derivation_value)}, ${plan.is_active}, ${plan.default},
                ${plan.requires_promo_code}, ${policy}::jsonb, NULL, ${createdAt}, ${now})
              ON CONFLICT (property_id, code) DO UPDATE SET
                room_type_id = EXCLUDED.room_type_id, name = EXCLUDED.name, public_name = EXCLUDED.public_name,
                description = EXCLUDED.description, image_url = EXCLUDED.image_url, base_price = EXCLUDED.base_price,
                currency = EXCLUDED.currency, extra_guest_charge = EXCLUDED.extra_guest_charge,
                single_guest_discount = EXCLUDED.single_guest_discount,
                single_guest_discount_type = EXCLUDED.single_guest_discount_type,
                min_los = EXCLUDED.min_los, max_los = EXCLUDED.max_los,
                booking_window_start = EXCLUDED.booking_window_start, booking_window_end = EXCLUDED.booking_window_end,
                stay_window_start = EXCLUDED.stay_window_start, stay_window_end = EXCLUDED.stay_window_end,
                active_for_booking_engine = EXCLUDED.active_for_booking_engine,
                active_for_channels = EXCLUDED.active_for_channels, kind = EXCLUDED.kind,
                derived_from_id = EXCLUDED.derived_from_id, derivation_type = EXCLUDED.derivation_type,
                derivation_value = EXCLUDED.derivation_value, is_active = EXCLUDED.is_active,
                is_default = EXCLUDED.is_default, requires_promo_code = EXCLUDED.requires_promo_code,
                cancellation_policy = EXCLUDED.cancellation_policy, deleted_at = NULL,
                updated_at = EXCLUDED.updated_at
              WHERE (rate_plans.room_type_id, rate_plans.name, rate_plans.public_name, rate_plans.description,
                     rate_plans.image_url, rate_plans.base_price, rate_plans.currency, rate_plans.extra_guest_charge,
                     rate_plans.single_guest_discount, rate_plans.single_guest_discount_type, rate_plans.min_los,
                     rate_plans.max_los, rate_plans.booking_window_start, rate_plans.booking_window_end,
                     rate_plans.stay_window_start, rate_plans.stay_window_end, rate_plans.active_for_booking_engine,
                     rate_plans.active_for_channels, rate_plans.kind, rate_plans.derived_from_id,
                     rate_plans.derivation_type, rate_plans.derivation_value, rate_plans.is_active,
                     rate_plans.is_default, rate_plans.requires_promo_code, rate_plans.cancellation_policy,
                     rate_plans.deleted_at)
                IS DISTINCT FROM
                    (EXCLUDED.room_type_id, EXCLUDED.name, EXCLUDED.public_name, EXCLUDED.description,
                     EXCLUDED.image_url, EXCLUDED.base_price, EXCLUDED.currency, EXCLUDED.extra_guest_charge,
                     EXCLUDED.single_guest_discount, EXCLUDED.single_guest_discount_type, EXCLUDED.min_los,
                     EXCLUDED.max_los, EXCLUDED.booking_window_start, EXCLUDED.booking_window_end,
                     EXCLUDED.stay_window_start, EXCLUDED.stay_window_end, EXCLUDED.active_for_booking_engine,
                     EXCLUDED.active_for_channels, EXCLUDED.kind, EXCLUDED.derived_from_id,
                     EXCLUDED.derivation_type, EXCLUDED.derivation_value, EXCLUDED.is_active,
                     EXCLUDED.is_default, EXCLUDED.requires_promo_code, EXCLUDED.cancellation_policy,
                     EXCLUDED.deleted_at)
              RETURNING id`
            const id = rows.length > 0 ? rows[0].id : (yield* sql<{ id: string }>`
              SELECT id FROM rate_plans WHERE property_id = ${propertyId} AND code = ${plan.code}`)[0].id
            ids[plan.code] = id
          }), { discard: true })
        // In the file's order.
        return Object.fromEntries(file.rate_plans.map((p) => [p.code, ids[p.code]]))
      })

    /** Imports an already decoded property file. */
    const importFile = (file: PropertyFile): Effect.Effect<PropertyImportResult> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const propertyId = yield* upsertProperty(file, now)
        yield* importCurrencies(propertyId, file)
        yield* importAgeBrackets(propertyId, file)
        yield* importTaxes(propertyId, file)
        const roomTypes = yield* importRoomTypes(propertyId, file)
        const services = yield* importServices(propertyId, file)
        const ratePlans = yield* importRatePlans(propertyId, file, roomTypes, now)
        const defaultCode = file.rate_plans.find((p) => p.default)?.code
        return {
          property_id: propertyId,
          room_types: roomTypes,
          services,
          rate_plans: ratePlans,
          default_rate_plan_id: defaultCode === undefined ? "" : ratePlans[defaultCode]
        }
      }).pipe(sql.withTransaction, Effect.orDie, Effect.withSpan("PropertyImport.importFile"))

    /** Decodes a parsed JSON document (`decodePropertyFile`), then imports it. */
    const importDocument = (input: unknown): Effect.Effect<PropertyImportResult, PropertyFileInvalid> =>
      Effect.flatMap(decodePropertyFile(input), importFile)

    return { importFile, importDocument } as const
  })
}) {}
