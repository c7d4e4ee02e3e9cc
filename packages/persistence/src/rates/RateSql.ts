// Queries shared by the rate-management services (plans, intervals, inclusions, promo codes). Every query is
// scoped by property; a deleted plan is a missing one. Lock order across the services: property row, then
// plan row(s), then the plan's intervals/inclusions/codes.
import type * as SqlClient from "effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { liveHold } from "../booking/HoldWindow.js"

/**
 * Locks the property's row for a change to its rate plans, so that plan writes (and their checks over the
 * whole derivation graph) run one at a time per property. Answers the base currency.
 */
export const lockProperty = (sql: SqlClient.SqlClient, propertyId: string) =>
  sql<{ base_currency: string }>`
    SELECT base_currency FROM properties WHERE id = ${propertyId} FOR NO KEY UPDATE`.pipe(
    Effect.flatMap((rows) =>
      rows.length === 0
        ? Effect.die(new Error(`property ${propertyId} of a valid key is missing`))
        : Effect.succeed(rows[0].base_currency)
    )
  )

/** The currencies a plan (or an inclusion) may use: the base currency, then the configured ones. */
export const propertyCurrencies = (sql: SqlClient.SqlClient, propertyId: string) =>
  sql<{ base_currency: string; currencies: ReadonlyArray<string> | null }>`
    SELECT p.base_currency,
           (SELECT array_agg(c.currency ORDER BY c.currency) FROM property_currencies c
             WHERE c.property_id = p.id AND c.currency <> p.base_currency) AS currencies
    FROM properties p WHERE p.id = ${propertyId}`.pipe(
    Effect.flatMap((rows) =>
      rows.length === 0
        ? Effect.die(new Error(`property ${propertyId} of a valid key is missing`))
        : Effect.succeed([rows[0].base_currency, ...(rows[0].currencies ?? [])])
    )
  )

/** What the interval, inclusion and promo-code rules need to know of a plan. */
export interface PlanFacts {
  readonly id: string
  readonly currency: string
  readonly single_guest_discount_type: "fixed" | "percent"
  readonly derived_from_id: string | null
}

export type PlanLock = "none" | "share" | "update"

/** A live plan of the property, optionally locked (`update` serialises writers of the plan's children). */
export const findPlanFacts = (sql: SqlClient.SqlClient, propertyId: string, planId: string, lock: PlanLock) =>
  sql<PlanFacts>`
    SELECT id, currency, single_guest_discount_type, derived_from_id FROM rate_plans
    WHERE id = ${planId} AND property_id = ${propertyId} AND deleted_at IS NULL
    ${lock === "update" ? sql.literal("FOR UPDATE") : lock === "share" ? sql.literal("FOR SHARE") : sql.literal("")}`
    .pipe(Effect.map((rows) => Option.fromNullishOr(rows[0])))

/**
 * Whether the reservation `r` redeems its promo code at `now`: a hold not yet expired, or
 * confirmed or later; cancelled reservations and expired holds free the code. The one definition the code
 * listings and the booking caps share, so `times_redeemed` and the caps never disagree. `now` comes from the
 * caller's Clock, never SQL `now()`.
 */
export const liveRedemption = (sql: SqlClient.SqlClient, now: Date) =>
  sql`(r.status IN ('confirmed', 'checked_in', 'checked_out', 'no_show')
       OR ${liveHold(sql, "r", now)})`
