import * as SqlClient from "effect/sql/SqlClient"
import {
  IntervalNotFound,
  IntervalOverlap,
  type InvalidParameters,
  type PreconditionFailed,
  RatePlanNotFound,
  Rates
} from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { requireCurrentTag } from "../events/EntityTag.js"
import { appendEvent, type EventOutbox } from "../events/EventOutbox.js"
import type { EventRenderer } from "../events/EventRenderer.js"
import { Subject } from "../events/EventSubject.js"
import { findPlanFacts, type PlanFacts } from "./RateSql.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

/** A `rate_plan_intervals` row with its plan's currency and discount type (to present money). */
export interface IntervalRow extends Rates.Interval.IntervalFields {
  readonly id: string
  readonly rate_plan_id: string
  readonly currency: string
  readonly single_guest_discount_type: "fixed" | "percent"
  readonly created_at: Date
}

/**
 * An interval's `id`, `rate_plan_id` and every field of `IntervalFields` (money as text), from
 * `rate_plan_intervals i`.
 */
export const intervalColumns = (sql: SqlClient.SqlClient) =>
  sql`
    i.id, i.rate_plan_id, i.name, i.start_date, i.end_date,
    i.price_mon::text AS price_mon, i.price_tue::text AS price_tue, i.price_wed::text AS price_wed,
    i.price_thu::text AS price_thu, i.price_fri::text AS price_fri, i.price_sat::text AS price_sat,
    i.price_sun::text AS price_sun, i.min_stay, i.max_stay, i.closed_to_arrival, i.closed_to_departure,
    i.stop_sell, i.extra_guest_charge::text AS extra_guest_charge,
    i.single_guest_discount::text AS single_guest_discount`

const ratePlanNotFound = (id: string) => new RatePlanNotFound({ message: `No rate plan ${id}` })
const intervalNotFound = (id: string) => new IntervalNotFound({ message: `No interval ${id}` })

const asRulesPlan = (plan: PlanFacts): Rates.Interval.IntervalPlan => ({
  currency: plan.currency,
  single_guest_discount_type: plan.single_guest_discount_type,
  derived: plan.derived_from_id !== null
})

/**
 * Seasonal intervals of a property's live plans. Every write locks the plan's row
 * (`SELECT ... FOR UPDATE`) inside its transaction before checking for overlaps, so two overlapping writes
 * arriving together cannot both pass the check.
 */
export class IntervalRepository extends Context.Service<IntervalRepository>()("@hotel/persistence/rates/IntervalRepository", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`${intervalColumns(sql)}, p.currency, p.single_guest_discount_type, i.created_at`

    const find = (propertyId: string, id: string) =>
      sql<IntervalRow>`
        SELECT ${columns} FROM rate_plan_intervals i JOIN rate_plans p ON p.id = i.rate_plan_id
        WHERE i.id = ${id} AND i.property_id = ${propertyId} AND p.property_id = ${propertyId}
          AND p.deleted_at IS NULL`.pipe(Effect.map((rows) => Option.fromNullishOr(rows[0])))

    const requirePlan = (propertyId: string, planId: string, lock: "none" | "update") =>
      findPlanFacts(sql, propertyId, planId, lock).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(ratePlanNotFound(planId)), onSome: Effect.succeed }))
      )

    /** The first interval of the plan sharing a night with the range, other than `except`. */
    const firstOverlap = (planId: string, fields: Rates.Interval.IntervalFields, except: string | null) =>
      sql<{ id: string; name: string; start_date: string; end_date: string }>`
        SELECT id, name, start_date, end_date FROM rate_plan_intervals
        WHERE rate_plan_id = ${planId} AND start_date < ${fields.end_date} AND end_date > ${fields.start_date}
          ${except === null ? sql.literal("") : sql`AND id <> ${except}`}
        ORDER BY start_date LIMIT 1`.pipe(Effect.map((rows) => Option.fromNullishOr(rows[0])))

    const rejectOverlap = (planId: string, fields: Rates.Interval.IntervalFields, except: string | null) =>
      Effect.flatMap(firstOverlap(planId, fields, except), Option.match({
        onNone: () => Effect.void,
        onSome: (other) =>
          Effect.fail(
            new IntervalOverlap({
              message: `${fields.start_date} to ${fields.end_date} shares nights with interval ${other.id} ` +
                `"${other.name}" (${other.start_date} to ${other.end_date}); intervals of a plan must not overlap`
            })
          )
      }))

    const list = (propertyId: string, planId: string) =>
      Effect.gen(function*() {
        yield* requirePlan(propertyId, planId, "none")
        return yield* sql<IntervalRow>`
          SELECT ${columns} FROM rate_plan_intervals i JOIN rate_plans p ON p.id = i.rate_plan_id
          WHERE i.rate_plan_id = ${planId} AND i.property_id = ${propertyId}
          ORDER BY i.start_date, i.id`
      }).pipe(Effect.catchTag("SqlError", Effect.die), withSpan("IntervalRepository.list"))

    const get = (propertyId: string, id: string) =>
      find(propertyId, id).pipe(
        Effect.catchTag("SqlError", Effect.die),
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(intervalNotFound(id)), onSome: Effect.succeed })),
        withSpan("IntervalRepository.get")
      )

    const create = (
      propertyId: string,
      planId: string,
      input: Rates.Interval.IntervalCreate
    ): Effect.Effect<{ readonly id: string }, InvalidParameters | RatePlanNotFound | IntervalOverlap, EventOutbox> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* Effect.fromResult(Rates.Interval.checkAlone(input))
        const plan = yield* requirePlan(propertyId, planId, "update")
        const fields = yield* Effect.fromResult(Rates.Interval.checkFields(Rates.Interval.fieldsFromCreate(input), asRulesPlan(plan)))
        yield* rejectOverlap(plan.id, fields, null)
        const [row] = yield* sql<{ id: string }>`
          INSERT INTO rate_plan_intervals (
            property_id, rate_plan_id, name, start_date, end_date, price_mon, price_tue, price_wed, price_thu,
            price_fri, price_sat, price_sun, min_stay, max_stay, closed_to_arrival, closed_to_departure, stop_sell,
            extra_guest_charge, single_guest_discount, created_at)
          VALUES (
            ${propertyId}, ${plan.id}, ${fields.name}, ${fields.start_date}, ${fields.end_date}, ${fields.price_mon},
            ${fields.price_tue}, ${fields.price_wed}, ${fields.price_thu}, ${fields.price_fri}, ${fields.price_sat},
            ${fields.price_sun}, ${fields.min_stay}, ${fields.max_stay}, ${fields.closed_to_arrival},
            ${fields.closed_to_departure}, ${fields.stop_sell}, ${fields.extra_guest_charge},
            ${fields.single_guest_discount}, ${now})
          RETURNING id`
        yield* appendEvent(propertyId, "interval.created", Subject.interval(row.id))
        return { id: row.id }
      }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan("IntervalRepository.create"))

    /** Finds the interval, then locks its plan and reads the interval again under the lock. */
    const lockInterval = (propertyId: string, id: string) =>
      Effect.gen(function*() {
        const found = yield* find(propertyId, id)
        if (Option.isNone(found)) return yield* intervalNotFound(id)
        const plan = yield* findPlanFacts(sql, propertyId, found.value.rate_plan_id, "update")
        const current = yield* find(propertyId, id)
        if (Option.isNone(plan) || Option.isNone(current)) return yield* intervalNotFound(id)
        return { plan: plan.value, interval: current.value }
      })

    const update = (
      propertyId: string,
      id: string,
      patch: Rates.Interval.IntervalPatch,
      ifMatch?: string
    ): Effect.Effect<
      void,
      InvalidParameters | IntervalNotFound | IntervalOverlap | PreconditionFailed,
      EventOutbox | EventRenderer
    > =>
      Effect.gen(function*() {
        yield* Effect.fromResult(Rates.Interval.checkAlone(patch))
        const { interval, plan } = yield* lockInterval(propertyId, id)
        yield* requireCurrentTag(propertyId, Subject.interval(id), ifMatch)
        const fields = yield* Effect.fromResult(Rates.Interval.checkFields(
          Rates.Interval.fieldsFromPatch(patch, interval),
          asRulesPlan(plan)
        ))
        yield* rejectOverlap(plan.id, fields, id)
        yield* sql`
          UPDATE rate_plan_intervals SET
            name = ${fields.name}, start_date = ${fields.start_date}, end_date = ${fields.end_date},
            price_mon = ${fields.price_mon}, price_tue = ${fields.price_tue}, price_wed = ${fields.price_wed},
            price_thu = ${fields.price_thu}, price_fri = ${fields.price_fri}, price_sat = ${fields.price_sat},
            price_sun = ${fields.price_sun}, min_stay = ${fields.min_stay}, max_stay = ${fields.max_stay},
            closed_to_arrival = ${fields.closed_to_arrival}, closed_to_departure = ${fields.closed_to_departure},
            stop_sell = ${fields.stop_sell}, extra_guest_charge = ${fields.extra_guest_charge},
            single_guest_discount = ${fields.single_guest_discount}
          WHERE id = ${id} AND property_id = ${propertyId}`
        yield* appendEvent(propertyId, "interval.updated", Subject.interval(id))
      }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan("IntervalRepository.update"))

    const remove = (
      propertyId: string,
      id: string,
      ifMatch?: string
    ): Effect.Effect<void, IntervalNotFound | PreconditionFailed, EventOutbox | EventRenderer> =>
      Effect.gen(function*() {
        yield* lockInterval(propertyId, id)
        yield* requireCurrentTag(propertyId, Subject.interval(id), ifMatch)
        yield* appendEvent(propertyId, "interval.deleted", Subject.interval(id))
        yield* sql`DELETE FROM rate_plan_intervals WHERE id = ${id} AND property_id = ${propertyId}`
      }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan("IntervalRepository.remove"))

    return { list, get, create, update, remove } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
