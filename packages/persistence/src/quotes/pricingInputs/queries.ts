// The snapshot's query: ONE statement whatever the number of plans, intervals, codes or nights (each part is
// aggregated to JSON by Postgres; a round trip costs the server more CPU than parsing the JSON). It only uses
// the `SqlClient` it is given, so inside `sql.withTransaction` it reads in that transaction.
import type * as SqlClient from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"
import { serviceRows } from "../../catalog/CatalogRepository.js"
import { inclusionColumns } from "../../rates/InclusionRepository.js"
import { intervalColumns } from "../../rates/IntervalRepository.js"
import { ratePlanColumns } from "../../rates/RatePlanRepository.js"
import { liveRedemption } from "../../rates/RateSql.js"
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
import type { NightSpan } from "./snapshot.js"

const propertyRow = (sql: SqlClient.SqlClient, propertyId: string) =>
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

const roomTypeRows = (sql: SqlClient.SqlClient, propertyId: string) =>
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

/** Everything a snapshot is built from, as one row (`property` is null when the property does not exist). */
export interface SnapshotRow {
  readonly property: PropertyPricingRow | null
  readonly room_types: ReadonlyArray<RoomTypePricingRow>
  readonly plans: ReadonlyArray<PlanPricingRow>
  readonly intervals: ReadonlyArray<IntervalPricingRow>
  readonly inclusions: ReadonlyArray<InclusionPricingRow>
  readonly services: ReadonlyArray<ServicePricingRow>
  readonly promo_codes: ReadonlyArray<PromoCodePricingRow>
  readonly nights: ReadonlyArray<NightPricingRow>
  /** Whether the booking guest is the property's; null when no guest was given. */
  readonly guest_found: boolean | null
}

/** A statement's rows as one JSON array, in the statement's own order ('[]' when it has none). */
const jsonRows = (sql: SqlClient.SqlClient, rows: Fragment) =>
  sql`(SELECT COALESCE(json_agg(t), '[]') FROM (${rows}) t)`

/**
 * The snapshot in one statement: the property (currencies, age brackets, taxes), room types, the live plans
 * (or one plan, `onlyPlanId`; none when `onlyPlanId` is not a plan id) and every ancestor they derive from,
 * deleted or not (`plans`), their intervals and inclusions, the services, and the plans' live promo codes with
 * their live redemptions at `now` (and the guest's, when a guest is given, and whether that guest is the
 * property's: a hold's 404 check, in the same round trip), and the plans' per-night overrides on the nights of
 * `span` (only those: two years of a calendar are not read to price a weekend). NUMERIC columns are text, DATE
 * columns `YYYY-MM-DD`, as in the catalogue's own rows.
 */
export const snapshotRow = (
  sql: SqlClient.SqlClient,
  propertyId: string,
  onlyPlanId: string | null,
  now: Date,
  guestId: string | null,
  span: NightSpan,
  excludeReservationId: string | null = null
) => {
  const seed = onlyPlanId === null
    ? sql`deleted_at IS NULL`
    : sql`deleted_at IS NULL AND id = ${onlyPlanId}::uuid`
  return sql<SnapshotRow>`
    ${chain(sql, propertyId, seed)},
    plans AS (
      SELECT ${ratePlanColumns(sql)}, deleted_at IS NOT NULL AS deleted
      FROM rate_plans
      WHERE property_id = ${propertyId} AND id IN (SELECT id FROM chain)
    )
    SELECT
      (SELECT row_to_json(p) FROM (${propertyRow(sql, propertyId)}) p) AS property,
      ${jsonRows(sql, roomTypeRows(sql, propertyId))} AS room_types,
      ${jsonRows(sql, sql`SELECT * FROM plans ORDER BY created_at, id`)} AS plans,
      ${jsonRows(sql, sql`
        SELECT ${intervalColumns(sql)}
        FROM rate_plan_intervals i
        WHERE i.property_id = ${propertyId} AND i.rate_plan_id IN (SELECT id FROM plans)
        ORDER BY i.rate_plan_id, i.start_date, i.id`)} AS intervals,
      ${jsonRows(sql, sql`
        SELECT ${inclusionColumns(sql)}
        FROM rate_plan_inclusions
        WHERE rate_plan_id IN (SELECT id FROM plans)
        ORDER BY rate_plan_id, position`)} AS inclusions,
      ${jsonRows(sql, serviceRows(sql, propertyId))} AS services,
      ${jsonRows(sql, promoCodeRows(sql, propertyId, now, guestId, excludeReservationId))} AS promo_codes,
      ${jsonRows(sql, nightRows(sql, span))} AS nights,
      ${guestId === null ? sql`NULL::boolean` : sql`EXISTS (SELECT 1 FROM guests WHERE property_id = ${propertyId} AND id = ${guestId}::uuid)`} AS guest_found`
}

/** The snapshot plans' per-night overrides (`POST /ari`) from `span.from` through `span.through`. */
const nightRows = (sql: SqlClient.SqlClient, span: NightSpan) =>
  sql`
    SELECT n.rate_plan_id, to_char(n.night, 'YYYY-MM-DD') AS night, n.price::text AS price, n.min_stay, n.max_stay,
           n.closed_to_arrival, n.closed_to_departure, n.stop_sell
    FROM rate_plan_nights n
    WHERE n.rate_plan_id IN (SELECT id FROM plans) AND n.night >= ${span.from}::date AND n.night <= ${span.through}::date
    ORDER BY n.rate_plan_id, n.night`

/** Live codes of the snapshot's plans with their live redemptions (and the guest's, when a guest is given). */
const promoCodeRows = (
  sql: SqlClient.SqlClient,
  propertyId: string,
  now: Date,
  guestId: string | null,
  excluded: string | null
) =>
  sql`
    SELECT pc.id, pc.rate_plan_id, pc.code, pc.valid_from, pc.valid_to, pc.max_redemptions, pc.max_per_guest,
           pc.is_active,
           count(r.id)::int AS redemptions,
           CASE WHEN ${guestId}::uuid IS NULL THEN NULL
                ELSE (count(r.id) FILTER (WHERE r.guest_id = ${guestId}::uuid))::int END AS guest_redemptions
    FROM promo_codes pc
    LEFT JOIN reservations r
      ON r.promo_code_id = pc.id AND r.property_id = pc.property_id AND ${liveRedemption(sql, now)}
      AND (${excluded}::uuid IS NULL OR r.id <> ${excluded}::uuid)
    WHERE pc.property_id = ${propertyId} AND pc.deleted_at IS NULL AND pc.rate_plan_id IN (SELECT id FROM plans)
    GROUP BY pc.id
    ORDER BY pc.rate_plan_id, pc.code`

/**
 * Locks (FOR UPDATE, in id order) the live promo codes of plans and their ancestors, so that a writer that then
 * loads the snapshot sees redemption counts no concurrent writer can overtake (the codes' caps). `lockStay` takes it.
 */
export const lockPromoCodeRowsOf = (sql: SqlClient.SqlClient, propertyId: string, planIds: ReadonlyArray<string>) =>
  sql`
    ${chain(sql, propertyId, sql`id = ANY(${planIds}::uuid[])`)}
    SELECT id FROM promo_codes
    WHERE property_id = ${propertyId} AND deleted_at IS NULL AND rate_plan_id IN (SELECT id FROM chain)
    ORDER BY id
    FOR UPDATE`
