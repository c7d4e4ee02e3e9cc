// Importing the property itself and its catalogue: everything matched by code and updated in
// place. Rooms missing from the file are retired; taxes and age brackets missing from it are removed (they are
// property rules the file states in full); currencies, room types and services missing from it stay.
import type * as SqlClient from "effect/sql/SqlClient"
import type { PropertyFile } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { stableId } from "../database/StableId.js"
import { orNull, policyJson } from "./values.js"

export const upsertProperty = (sql: SqlClient.SqlClient, file: PropertyFile, now: Date) =>
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

export const importCurrencies = (sql: SqlClient.SqlClient, propertyId: string, file: PropertyFile) =>
  Effect.forEach(file.currencies, (c) =>
    sql`
      INSERT INTO property_currencies (property_id, currency, rate_to_base)
      VALUES (${propertyId}, ${c.currency}, ${c.rate_to_base})
      ON CONFLICT (property_id, currency) DO UPDATE SET rate_to_base = EXCLUDED.rate_to_base`, { discard: true })

export const importAgeBrackets = (sql: SqlClient.SqlClient, propertyId: string, file: PropertyFile) =>
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

export const importTaxes = (sql: SqlClient.SqlClient, propertyId: string, file: PropertyFile) =>
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

export const importRoomTypes = (sql: SqlClient.SqlClient, propertyId: string, file: PropertyFile) =>
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

export const importServices = (sql: SqlClient.SqlClient, propertyId: string, file: PropertyFile) =>
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
