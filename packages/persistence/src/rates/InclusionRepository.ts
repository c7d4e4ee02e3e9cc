import * as SqlClient from "effect/sql/SqlClient"
import { type InvalidParameters, RatePlanNotFound, Rates, ServiceNotFound } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { appendEvent, type EventOutbox } from "../events/EventOutbox.js"
import { Subject } from "../events/EventSubject.js"
import { findPlanFacts, propertyCurrencies } from "./RateSql.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

/** A `rate_plan_inclusions` row, money as text. */
export interface InclusionRow extends Rates.Inclusion.InclusionFields {
  readonly id: string
  readonly rate_plan_id: string
  readonly position: number
}

/** The columns of an `InclusionRow` (money as text), from `rate_plan_inclusions` alone. */
export const inclusionColumns = (sql: SqlClient.SqlClient) =>
  sql`
    id, rate_plan_id, position, label, allocated_amount::text AS allocated_amount, frequency, inclusion_kind,
    revenue_category, service_item_id, currency, included_quantity`

const ratePlanNotFound = (id: string) => new RatePlanNotFound({ message: `No rate plan ${id}` })

/** Inclusions and credits of a property's live plans: read in order, replaced as a whole. */
export class InclusionRepository extends Context.Service<InclusionRepository>()(
  "@hotel/persistence/rates/InclusionRepository",
  {
    make: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const requirePlan = (propertyId: string, planId: string, lock: "none" | "update") =>
        findPlanFacts(sql, propertyId, planId, lock).pipe(
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(ratePlanNotFound(planId)), onSome: Effect.succeed }))
        )

      const list = (propertyId: string, planId: string) =>
        Effect.gen(function*() {
          yield* requirePlan(propertyId, planId, "none")
          return yield* sql<InclusionRow>`
            SELECT ${inclusionColumns(sql)} FROM rate_plan_inclusions WHERE rate_plan_id = ${planId}
            ORDER BY position, id`
        }).pipe(Effect.catchTag("SqlError", Effect.die), withSpan("InclusionRepository.list"))

      /**
       * Replaces the plan's whole set in one transaction: the plan row is locked, every entry checked (400 by
       * index), every linked service looked up (404), and only then the old set deleted and the new one written.
       */
      const replace = (
        propertyId: string,
        planId: string,
        input: Rates.Inclusion.InclusionsReplace
      ): Effect.Effect<{ readonly count: number }, InvalidParameters | RatePlanNotFound | ServiceNotFound, EventOutbox> =>
        Effect.gen(function*() {
          const currencies = yield* propertyCurrencies(sql, propertyId)
          const plan = yield* requirePlan(propertyId, planId, "update")
          const entries = yield* Effect.fromResult(Rates.Inclusion.checkInclusions(input.inclusions, plan.currency, currencies))
          const linked = Array.from(new Set(entries.flatMap((e) => (e.service_item_id === null ? [] : [e.service_item_id]))))
          if (linked.length > 0) {
            const found = yield* sql<{ id: string }>`
              SELECT id FROM services WHERE property_id = ${propertyId} AND id = ANY(${linked}::uuid[])`
            const known = new Set(found.map((row) => row.id))
            const index = entries.findIndex((e) => e.service_item_id !== null && !known.has(e.service_item_id))
            if (index >= 0) {
              return yield* new ServiceNotFound({
                message: `inclusions[${index}].service_item_id: no service ${entries[index].service_item_id}`
              })
            }
          }
          yield* sql`DELETE FROM rate_plan_inclusions WHERE rate_plan_id = ${plan.id}`
          yield* Effect.forEach(entries, (entry, position) =>
            sql`
              INSERT INTO rate_plan_inclusions (
                rate_plan_id, position, label, allocated_amount, frequency, inclusion_kind, revenue_category,
                service_item_id, currency, included_quantity)
              VALUES (
                ${plan.id}, ${position}, ${entry.label}, ${entry.allocated_amount}, ${entry.frequency},
                ${entry.inclusion_kind}, ${entry.revenue_category}, ${entry.service_item_id}, ${entry.currency},
                ${entry.included_quantity})`, { discard: true })
          yield* appendEvent(propertyId, "inclusions.replaced", Subject.inclusions(plan.id))
          return { count: entries.length }
        }).pipe(
          inTransaction(sql),
          Effect.catchTag("SqlError", Effect.die),
          withSpan("InclusionRepository.replace")
        )

      return { list, replace } as const
    })
  }
) {
  static readonly layer = Layer.effect(this, this.make)
}
