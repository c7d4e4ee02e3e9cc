// The snapshot's queries: a fixed number whatever the number of plans, intervals, codes or nights. Each only
// uses the `SqlClient` it is given, so inside `sql.withTransaction` it reads in that transaction.
import type * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import { inclusionColumns } from "../../rates/InclusionRepository.js"
import { intervalColumns } from "../../rates/IntervalRepository.js"
import { ratePlanColumns } from "../../rates/RatePlanRepository.js"
import { liveRedemption } from "../../rates/RateSql.js"
import type {
  InclusionPricingRow,
  IntervalPricingRow,
  PlanPricingRow,
  PromoCodePricingRow,
  PropertyPricingRow,
  RoomTypePricingRow
} from "./rows.js"

export const propertyRow = (sql: SqlClient.SqlClient, propertyId: string) =>
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

export const roomTypeRows = (sql: SqlClient.SqlClient, propertyId: string) =>
  sql<RoomTypePricingRow>`
    SELECT id, code, name, base_occupancy, max_occupancy, bed_configs
    FROM room_types WHERE property_id = ${propertyId}
    ORDER BY position, code`

/**
 * `chain (id, parent_id)`: the plans `seed` selects from the property's plans, and every ancestor they derive
 * from, deleted or not (one recursive query, whatever the depth).
 */
const chain = (sql: SqlClient.SqlClient, propertyId: string, seed: Fragment) =>
  sql`
    WITH RECURSIVE chain (id, parent_id) AS (
      SELECT id, derived_from_id FROM rate_plans WHERE property_id = ${propertyId} AND ${seed}
      UNION
      SELECT rp.id, rp.derived_from_id FROM rate_plans rp JOIN chain c ON rp.id = c.parent_id
      WHERE rp.property_id = ${propertyId}
    )`

/** The live plans (or one plan) and every ancestor they derive from, deleted or not, in one query. */
export const planRows = (sql: SqlClient.SqlClient, propertyId: string, onlyPlanId: string | null) =>
  sql<PlanPricingRow>`
    ${chain(sql, propertyId, sql`deleted_at IS NULL AND (${onlyPlanId}::uuid IS NULL OR id = ${onlyPlanId}::uuid)`)}
    SELECT ${ratePlanColumns(sql)}, deleted_at IS NOT NULL AS deleted
    FROM rate_plans
    WHERE property_id = ${propertyId} AND id IN (SELECT id FROM chain)
    ORDER BY created_at, id`

export const intervalRows = (sql: SqlClient.SqlClient, propertyId: string, planIds: ReadonlyArray<string>) =>
  sql<IntervalPricingRow>`
    SELECT ${intervalColumns(sql)}
    FROM rate_plan_intervals i
    WHERE i.property_id = ${propertyId} AND i.rate_plan_id = ANY(${planIds}::uuid[])
    ORDER BY i.rate_plan_id, i.start_date, i.id`

export const inclusionRows = (sql: SqlClient.SqlClient, planIds: ReadonlyArray<string>) =>
  sql<InclusionPricingRow>`
    SELECT ${inclusionColumns(sql)}
    FROM rate_plan_inclusions
    WHERE rate_plan_id = ANY(${planIds}::uuid[])
    ORDER BY rate_plan_id, position`

/** Live codes of the plans with their live redemptions (and the guest's, when a guest is given). */
export const promoCodeRows = (
  sql: SqlClient.SqlClient,
  propertyId: string,
  planIds: ReadonlyArray<string>,
  now: Date,
  guestId: string | null
) =>
  sql<PromoCodePricingRow>`
    SELECT pc.id, pc.rate_plan_id, pc.code, pc.valid_from, pc.valid_to, pc.max_redemptions, pc.max_per_guest,
           pc.is_active,
           count(r.id)::int AS redemptions,
           CASE WHEN ${guestId}::uuid IS NULL THEN NULL
                ELSE (count(r.id) FILTER (WHERE r.guest_id = ${guestId}::uuid))::int END AS guest_redemptions
    FROM promo_codes pc
    LEFT JOIN reservations r
      ON r.promo_code_id = pc.id AND r.property_id = pc.property_id AND ${liveRedemption(sql, now)}
    WHERE pc.property_id = ${propertyId} AND pc.deleted_at IS NULL AND pc.rate_plan_id = ANY(${planIds}::uuid[])
    GROUP BY pc.id
    ORDER BY pc.rate_plan_id, pc.code`

/** Locks (FOR UPDATE, in id order) the live promo codes of a plan and its ancestors. */
export const lockPromoCodeRows = (sql: SqlClient.SqlClient, propertyId: string, planId: string) =>
  sql`
    ${chain(sql, propertyId, sql`id = ${planId}`)}
    SELECT id FROM promo_codes
    WHERE property_id = ${propertyId} AND deleted_at IS NULL AND rate_plan_id IN (SELECT id FROM chain)
    ORDER BY id
    FOR UPDATE`
