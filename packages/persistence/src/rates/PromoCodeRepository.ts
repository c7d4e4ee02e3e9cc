import * as SqlClient from "effect/sql/SqlClient"
import { type InvalidParameters, type PreconditionFailed, PromoCodeExists, PromoCodeNotFound, RatePlanNotFound, Rates } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { requireCurrentTag } from "../events/EntityTag.js"
import { appendEvent, type EventOutbox } from "../events/EventOutbox.js"
import type { EventRenderer } from "../events/EventRenderer.js"
import { Subject } from "../events/EventSubject.js"
import { isUniqueViolation } from "../database/ConstraintViolation.js"
import { findPlanFacts, liveRedemption } from "./RateSql.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

/** A `promo_codes` row with its live redemption count. */
export interface PromoCodeRow extends Rates.PromoCode.PromoCodeFields {
  readonly id: string
  readonly rate_plan_id: string
  readonly code: string
  readonly times_redeemed: number
  readonly created_at: Date
}

const ratePlanNotFound = (id: string) => new RatePlanNotFound({ message: `No rate plan ${id}` })
const promoCodeNotFound = (id: string) => new PromoCodeNotFound({ message: `No promo code ${id}` })

/**
 * Promo codes of a property's live plans. Codes are unique per plan among non-deleted codes; the
 * partial unique index `promo_codes_unique_per_plan` decides under concurrency, its violation is the 409.
 */
export class PromoCodeRepository extends Context.Service<PromoCodeRepository>()(
  "@hotel/persistence/rates/PromoCodeRepository",
  {
    make: Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const columns = (now: Date) =>
        sql`
          c.id, c.rate_plan_id, c.code, c.valid_from, c.valid_to, c.max_redemptions, c.max_per_guest, c.is_active,
          c.created_at,
          (SELECT count(*)::int FROM reservations r
            WHERE r.promo_code_id = c.id AND ${liveRedemption(sql, now)}) AS times_redeemed`

      const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

      const requirePlan = (propertyId: string, planId: string, lock: "none" | "share") =>
        findPlanFacts(sql, propertyId, planId, lock).pipe(
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(ratePlanNotFound(planId)), onSome: Effect.succeed }))
        )

      const find = (propertyId: string, id: string, at: Date, lock: boolean) =>
        sql<PromoCodeRow>`
          SELECT ${columns(at)} FROM promo_codes c JOIN rate_plans p ON p.id = c.rate_plan_id
          WHERE c.id = ${id} AND c.property_id = ${propertyId} AND c.deleted_at IS NULL
            AND p.property_id = ${propertyId} AND p.deleted_at IS NULL
          ${lock ? sql.literal("FOR UPDATE OF c") : sql.literal("")}`.pipe(
          Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(promoCodeNotFound(id)) : Effect.succeed(rows[0]))
        )

      const list = (propertyId: string, planId: string) =>
        Effect.gen(function*() {
          const at = yield* now
          yield* requirePlan(propertyId, planId, "none")
          return yield* sql<PromoCodeRow>`
            SELECT ${columns(at)} FROM promo_codes c
            WHERE c.rate_plan_id = ${planId} AND c.property_id = ${propertyId} AND c.deleted_at IS NULL
            ORDER BY c.code, c.id`
        }).pipe(Effect.catchTag("SqlError", Effect.die), withSpan("PromoCodeRepository.list"))

      const get = (propertyId: string, id: string) =>
        Effect.flatMap(now, (at) => find(propertyId, id, at, false)).pipe(
          Effect.catchTag("SqlError", Effect.die),
          withSpan("PromoCodeRepository.get")
        )

      const create = (
        propertyId: string,
        planId: string,
        input: Rates.PromoCode.PromoCodeCreate
      ): Effect.Effect<
        { readonly id: string; readonly code: string },
        InvalidParameters | RatePlanNotFound | PromoCodeExists,
        EventOutbox
      > => {
        const code = Rates.PromoCode.normalizeCode(input.code)
        return Effect.gen(function*() {
          const at = yield* now
          const fields = Rates.PromoCode.fieldsFromCreate(input)
          yield* Effect.fromResult(Rates.PromoCode.checkFields(fields))
          // Shared lock: the plan cannot be deleted meanwhile; concurrent creates meet at the unique index.
          const plan = yield* requirePlan(propertyId, planId, "share")
          const [row] = yield* sql<{ id: string; code: string }>`
            INSERT INTO promo_codes (
              property_id, rate_plan_id, code, valid_from, valid_to, max_redemptions, max_per_guest, is_active,
              created_at)
            VALUES (
              ${propertyId}, ${plan.id}, ${code}, ${fields.valid_from}, ${fields.valid_to}, ${fields.max_redemptions},
              ${fields.max_per_guest}, ${fields.is_active}, ${at})
            RETURNING id, code`
          yield* appendEvent(propertyId, "promo_code.created", Subject.promoCode(row.id))
          return row
        }).pipe(
          inTransaction(sql),
          Effect.catchTag("SqlError", (error) =>
            isUniqueViolation(error, "promo_codes_unique_per_plan")
              ? Effect.fail(new PromoCodeExists({ message: `The rate plan already has the promo code ${code}` }))
              : Effect.die(error)),
          withSpan("PromoCodeRepository.create")
        )
      }

      const update = (
        propertyId: string,
        id: string,
        patch: Rates.PromoCode.PromoCodePatch,
        ifMatch?: string
      ): Effect.Effect<void, InvalidParameters | PromoCodeNotFound | PreconditionFailed, EventOutbox | EventRenderer> =>
        Effect.gen(function*() {
          yield* Effect.fromResult(Rates.PromoCode.checkFields(patch))
          const stored = yield* find(propertyId, id, yield* now, true)
          yield* requireCurrentTag(propertyId, Subject.promoCode(id), ifMatch)
          const fields = Rates.PromoCode.fieldsFromPatch(patch, stored)
          yield* Effect.fromResult(Rates.PromoCode.checkFields(fields))
          yield* sql`
            UPDATE promo_codes SET
              valid_from = ${fields.valid_from}, valid_to = ${fields.valid_to},
              max_redemptions = ${fields.max_redemptions}, max_per_guest = ${fields.max_per_guest},
              is_active = ${fields.is_active}
            WHERE id = ${id} AND property_id = ${propertyId}`
          yield* appendEvent(propertyId, "promo_code.updated", Subject.promoCode(id))
        }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan("PromoCodeRepository.update"))

      /** Soft delete: reservations booked with the code keep it; the text is free again on the plan. */
      const remove = (
        propertyId: string,
        id: string,
        ifMatch?: string
      ): Effect.Effect<void, PromoCodeNotFound | PreconditionFailed, EventOutbox | EventRenderer> =>
        Effect.gen(function*() {
          const at = yield* now
          yield* find(propertyId, id, at, true)
          yield* requireCurrentTag(propertyId, Subject.promoCode(id), ifMatch)
          yield* appendEvent(propertyId, "promo_code.deleted", Subject.promoCode(id))
          yield* sql`UPDATE promo_codes SET deleted_at = ${at} WHERE id = ${id} AND property_id = ${propertyId}`
        }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan("PromoCodeRepository.remove"))

      return { list, get, create, update, remove } as const
    })
  }
) {
  static readonly layer = Layer.effect(this, this.make)
}
