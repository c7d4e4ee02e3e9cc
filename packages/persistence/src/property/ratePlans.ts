// Importing a property file's rate plans: matched by code, parents before the plans derived
// from them, the file's default made the only default; plans missing from the file stay.
import type * as SqlClient from "effect/sql/SqlClient"
import type { PropertyFile, PropertyFileRatePlan } from "@hotel/domain"
import { propertyFilePlanCurrency } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { stableId } from "../database/StableId.js"
import { orNull, policyJson } from "./values.js"

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

/**
 * What a re-import overwrites, in table order. One list for the SET and for the comparison that guards it, so a
 * column cannot be overwritten without being compared: an import that changes none leaves `updated_at` alone.
 * (`deleted_at` comes in as NULL: importing a deleted plan restores it.)
 */
const importedColumns = [
  "room_type_id", "name", "public_name", "description", "image_url", "base_price", "currency",
  "extra_guest_charge", "single_guest_discount", "single_guest_discount_type", "min_los", "max_los",
  "booking_window_start", "booking_window_end", "stay_window_start", "stay_window_end",
  "active_for_booking_engine", "active_for_channels", "kind", "derived_from_id", "derivation_type",
  "derivation_value", "is_active", "is_default", "requires_promo_code", "cancellation_policy", "deleted_at"
] as const
const overwrite = importedColumns.map((column) => `${column} = EXCLUDED.${column}`).join(", ")
const stored = importedColumns.map((column) => `rate_plans.${column}`).join(", ")
const incoming = importedColumns.map((column) => `EXCLUDED.${column}`).join(", ")

/** A plan the import created, or changed (restored, stepped down from default, any imported column). */
export interface PlanChange {
  readonly id: string
  readonly created: boolean
}

/**
 * Creates or updates the file's plans; answers their ids by code, in the file's order, and the plans it
 * created or changed (for their events), in the order it wrote them.
 */
export const importRatePlans = (
  sql: SqlClient.SqlClient,
  propertyId: string,
  file: PropertyFile,
  roomTypeIds: Readonly<Record<string, string>>,
  now: Date
) =>
  Effect.gen(function*() {
    const defaultPlan = file.rate_plans.find((p) => p.default)
    // The unique "one default per property" index: step the old default down before the new one is set.
    const steppedDown = yield* sql<{ id: string }>`
      UPDATE rate_plans SET is_default = false, updated_at = ${now}
      WHERE property_id = ${propertyId} AND is_default AND code IS DISTINCT FROM ${orNull(defaultPlan?.code)}
      RETURNING id`
    const changes: Array<PlanChange> = steppedDown.map(({ id }) => ({ id, created: false }))
    const ids: Record<string, string> = {}
    const position = new Map(file.rate_plans.map((p, i) => [p.code, i]))
    yield* Effect.forEach(parentsFirst(file.rate_plans), (plan) =>
      Effect.gen(function*() {
        const parentId = plan.derived_from === undefined ? null : ids[plan.derived_from]
        // Plans created together keep the file's order in lists ordered by creation time (and a new plan is
        // never updated before it was created).
        const createdAt = new Date(now.getTime() + (position.get(plan.code) ?? 0))
        const policy = plan.cancellation_policy === undefined ? null : policyJson(plan.cancellation_policy)
        // `xmax = 0`: the row is new (an updated row carries the updating transaction's id).
        const rows = yield* sql<{ id: string; created: boolean }>`
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
            ${plan.requires_promo_code}, ${policy}::jsonb, NULL, ${createdAt}, ${createdAt})
          ON CONFLICT (property_id, code) DO UPDATE SET
            ${sql.literal(overwrite)}, updated_at = EXCLUDED.updated_at
          WHERE (${sql.literal(stored)}) IS DISTINCT FROM (${sql.literal(incoming)})
          RETURNING id, (xmax = 0) AS created`
        if (rows.length > 0) changes.push(rows[0])
        const id = rows.length > 0 ? rows[0].id : (yield* sql<{ id: string }>`
          SELECT id FROM rate_plans WHERE property_id = ${propertyId} AND code = ${plan.code}`)[0].id
        ids[plan.code] = id
      }), { discard: true })
    // In the file's order.
    return { ids: Object.fromEntries(file.rate_plans.map((p) => [p.code, ids[p.code]])), changes }
  })
