import * as SqlClient from "effect/sql/SqlClient"
import type { Rates } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { withSpan } from "../database/Span.js"

/** A `rate_plans` row with NUMERIC as text, DATE as `YYYY-MM-DD`. */
export interface RatePlanRow extends Rates.RatePlan.RatePlanFields {
  readonly id: string
  readonly property_id: string
  readonly code: string | null
  readonly is_default: boolean
  readonly created_at: Date
  readonly updated_at: Date
}

/** The columns of a `RatePlanRow`, for every read of whole plans (unqualified: select from `rate_plans` alone). */
export const ratePlanColumns = (sql: SqlClient.SqlClient) =>
  sql`
    id, property_id, code, room_type_id, name, public_name, description, image_url, base_price::text AS base_price,
    currency, extra_guest_charge::text AS extra_guest_charge, single_guest_discount::text AS single_guest_discount,
    single_guest_discount_type, min_los, max_los, booking_window_start, booking_window_end, stay_window_start,
    stay_window_end, active_for_booking_engine, active_for_channels, kind, derived_from_id, derivation_type,
    derivation_value::text AS derivation_value, is_active, is_default, requires_promo_code, cancellation_policy,
    created_at, updated_at`

export class RatePlanRepository extends Context.Service<RatePlanRepository>()("@hotel/persistence/rates/RatePlanRepository", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = ratePlanColumns(sql)

    /** Live (not deleted) plans of a property. */
    const list = (propertyId: string) =>
      sql<RatePlanRow>`SELECT ${columns} FROM rate_plans
                       WHERE property_id = ${propertyId} AND deleted_at IS NULL
                       ORDER BY created_at, id`.pipe(Effect.orDie, withSpan("RatePlanRepository.list"))

    const findById = (propertyId: string, id: string) =>
      sql<RatePlanRow>`SELECT ${columns} FROM rate_plans
                       WHERE property_id = ${propertyId} AND id = ${id} AND deleted_at IS NULL`.pipe(
        Effect.map((rows) => Option.fromNullishOr(rows[0])),
        Effect.orDie,
        withSpan("RatePlanRepository.findById")
      )

    return { list, findById } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
