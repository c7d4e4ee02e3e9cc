import * as SqlClient from "effect/sql/SqlClient"
import {
  DefaultRatePlanProtected,
  type InvalidParameters,
  type PreconditionFailed,
  RatePlanInUse,
  RatePlanNotFound,
  Rates,
  RoomTypeNotFound
} from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import * as Option from "effect/Option"
import { requireCurrentTag } from "../events/EntityTag.js"
import { appendEvent, type EventOutbox } from "../events/EventOutbox.js"
import type { EventRenderer } from "../events/EventRenderer.js"
import { Subject } from "../events/EventSubject.js"
import { ratePlanColumns, type RatePlanRow } from "./RatePlanRepository.js"
import { lockProperty, propertyCurrencies } from "./RateSql.js"
import { clearPrices } from "../ari/nightsSql.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

const policyJson = (fields: Rates.RatePlan.RatePlanFields): string | null =>
  fields.cancellation_policy === null ? null : JSON.stringify(fields.cancellation_policy)

const notFound = (id: string) => new RatePlanNotFound({ message: `No rate plan ${id}` })

/**
 * Rate plan writes: create, change and (soft) delete, each in one transaction that first locks
 * the property's row, so the checks over the derivation graph see no concurrent change. Checks run in the
 * contract's order: fields (400), referenced resources (404), relations to the parent (400), business rules
 * (403, 409). A change loads what depends on the plan and leaves the rules to `Rates.RatePlan.checkUpdate`.
 */
export class RateManagement extends Context.Service<RateManagement>()("@hotel/persistence/rates/RateManagement", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const findPlan = (propertyId: string, id: string, lock: boolean) =>
      sql<RatePlanRow>`
        SELECT ${ratePlanColumns(sql)} FROM rate_plans
        WHERE id = ${id} AND property_id = ${propertyId} AND deleted_at IS NULL
        ${lock ? sql.literal("FOR UPDATE") : sql.literal("")}`.pipe(Effect.map((rows) => Option.fromNullishOr(rows[0])))

    const roomTypeExists = (propertyId: string, id: string) =>
      sql<{ id: string }>`SELECT id FROM room_types WHERE id = ${id} AND property_id = ${propertyId}`.pipe(
        Effect.map((rows) => rows.length > 0)
      )

    /** Every live plan of the property with its parent: the derivation graph. */
    const derivationGraph = (propertyId: string) =>
      sql<{ id: string; derived_from_id: string | null }>`
        SELECT id, derived_from_id FROM rate_plans WHERE property_id = ${propertyId} AND deleted_at IS NULL`.pipe(
        Effect.map((rows) => new Map(rows.map((row) => [row.id, row.derived_from_id])))
      )

    const liveChildren = (propertyId: string, id: string) =>
      sql<{ count: number }>`
        SELECT count(*)::int AS count FROM rate_plans
        WHERE property_id = ${propertyId} AND derived_from_id = ${id} AND deleted_at IS NULL`.pipe(
        Effect.map((rows) => rows[0].count)
      )

    /** How many of the plan's intervals carry each kind of amount (what a currency or type change would reread). */
    const intervalAmounts = (id: string) =>
      sql<{ weekday_priced: number; extra_guest: number; discount: number }>`
        SELECT
          count(*) FILTER (WHERE COALESCE(price_mon, price_tue, price_wed, price_thu, price_fri, price_sat,
                                          price_sun) IS NOT NULL)::int AS weekday_priced,
          count(*) FILTER (WHERE extra_guest_charge > 0)::int AS extra_guest,
          count(*) FILTER (WHERE single_guest_discount > 0)::int AS discount
        FROM rate_plan_intervals WHERE rate_plan_id = ${id}`.pipe(Effect.map(([counts]) => ({
          weekdayPricedIntervals: counts.weekday_priced,
          extraGuestIntervals: counts.extra_guest,
          discountIntervals: counts.discount
        })))

    const create = (
      propertyId: string,
      input: Rates.RatePlan.RatePlanCreate
    ): Effect.Effect<{ readonly id: string }, InvalidParameters | RoomTypeNotFound | RatePlanNotFound, EventOutbox> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const baseCurrency = yield* lockProperty(sql, propertyId)
        const currencies = yield* propertyCurrencies(sql, propertyId)
        const parent = input.derived_from_id == null
          ? Option.none<RatePlanRow>()
          : yield* findPlan(propertyId, input.derived_from_id, false)
        const draft = Rates.RatePlan.fieldsFromCreate(input, {
          baseCurrency,
          parentCurrency: Option.getOrUndefined(Option.map(parent, (p) => p.currency))
        })
        const fields = yield* Effect.fromResult(Rates.RatePlan.checkFields(draft, currencies))
        if (!(yield* roomTypeExists(propertyId, fields.room_type_id))) {
          return yield* new RoomTypeNotFound({ message: `No room type ${fields.room_type_id}` })
        }
        if (fields.derived_from_id !== null) {
          if (Option.isNone(parent)) return yield* notFound(fields.derived_from_id)
          yield* Effect.fromResult(Rates.RatePlan.checkParent(undefined, fields, parent.value, new Map()))
        }
        const [row] = yield* sql<{ id: string }>`
          INSERT INTO rate_plans (
            property_id, room_type_id, name, public_name, description, image_url, base_price, currency,
            extra_guest_charge, single_guest_discount, single_guest_discount_type, min_los, max_los,
            booking_window_start, booking_window_end, stay_window_start, stay_window_end,
            active_for_booking_engine, active_for_channels, kind, derived_from_id, derivation_type, derivation_value,
            is_active, is_default, requires_promo_code, cancellation_policy, created_at, updated_at)
          VALUES (
            ${propertyId}, ${fields.room_type_id}, ${fields.name}, ${fields.public_name}, ${fields.description},
            ${fields.image_url}, ${fields.base_price}, ${fields.currency}, ${fields.extra_guest_charge},
            ${fields.single_guest_discount}, ${fields.single_guest_discount_type}, ${fields.min_los},
            ${fields.max_los}, ${fields.booking_window_start}, ${fields.booking_window_end},
            ${fields.stay_window_start}, ${fields.stay_window_end}, ${fields.active_for_booking_engine},
            ${fields.active_for_channels}, ${fields.kind}, ${fields.derived_from_id}, ${fields.derivation_type},
            ${fields.derivation_value}, ${fields.is_active}, false, ${fields.requires_promo_code},
            ${policyJson(fields)}::jsonb, ${now}, ${now})
          RETURNING id`
        yield* appendEvent(propertyId, "rate_plan.created", Subject.ratePlan(row.id))
        return { id: row.id }
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        withSpan("RateManagement.create")
      )

    const update = (
      propertyId: string,
      id: string,
      patch: Rates.RatePlan.RatePlanPatch,
      ifMatch?: string
    ): Effect.Effect<
      void,
      InvalidParameters | RatePlanNotFound | DefaultRatePlanProtected | PreconditionFailed,
      EventOutbox | EventRenderer
    > =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* lockProperty(sql, propertyId)
        const currencies = yield* propertyCurrencies(sql, propertyId)
        yield* Effect.fromResult(Rates.RatePlan.checkPatchAlone(patch, currencies))
        const stored = yield* findPlan(propertyId, id, true).pipe(
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound(id)), onSome: Effect.succeed }))
        )
        yield* requireCurrentTag(propertyId, Subject.ratePlan(id), ifMatch)
        const fields = yield* Effect.fromResult(Rates.RatePlan.checkFields(Rates.RatePlan.fieldsFromPatch(patch, stored), currencies))
        if (fields.derived_from_id !== null) {
          const parentId = fields.derived_from_id
          const parent = yield* findPlan(propertyId, parentId, false).pipe(
            Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound(parentId)), onSome: Effect.succeed }))
          )
          yield* Effect.fromResult(Rates.RatePlan.checkParent(id, fields, parent, yield* derivationGraph(propertyId)))
        }
        const decision = Rates.RatePlan.checkUpdate({
          ...stored,
          liveChildren: yield* liveChildren(propertyId, id),
          ...yield* intervalAmounts(id)
        }, fields)
        if (Result.isFailure(decision)) return yield* decision.failure
        yield* sql`
          UPDATE rate_plans SET
            name = ${fields.name}, public_name = ${fields.public_name}, description = ${fields.description},
            image_url = ${fields.image_url}, base_price = ${fields.base_price}, currency = ${fields.currency},
            extra_guest_charge = ${fields.extra_guest_charge}, single_guest_discount = ${fields.single_guest_discount},
            single_guest_discount_type = ${fields.single_guest_discount_type}, min_los = ${fields.min_los},
            max_los = ${fields.max_los}, booking_window_start = ${fields.booking_window_start},
            booking_window_end = ${fields.booking_window_end}, stay_window_start = ${fields.stay_window_start},
            stay_window_end = ${fields.stay_window_end}, active_for_booking_engine = ${fields.active_for_booking_engine},
            active_for_channels = ${fields.active_for_channels}, kind = ${fields.kind},
            derived_from_id = ${fields.derived_from_id}, derivation_type = ${fields.derivation_type},
            derivation_value = ${fields.derivation_value}, is_active = ${fields.is_active},
            requires_promo_code = ${fields.requires_promo_code}, cancellation_policy = ${policyJson(fields)}::jsonb,
            updated_at = ${now}
          WHERE id = ${id} AND property_id = ${propertyId}`
        // A derived plan follows its parent's night price (`POST /ari`): a plan made derived keeps no price override.
        if (fields.derived_from_id !== null && stored.derived_from_id === null) yield* clearPrices(sql, id)
        yield* appendEvent(propertyId, "rate_plan.updated", Subject.ratePlan(id))
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        withSpan("RateManagement.update")
      )

    /** Soft delete: the plan vanishes from lists, reads and booking; reservations keep their prices. */
    const remove = (
      propertyId: string,
      id: string,
      ifMatch?: string
    ): Effect.Effect<
      void,
      RatePlanNotFound | DefaultRatePlanProtected | RatePlanInUse | PreconditionFailed,
      EventOutbox | EventRenderer
    > =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* lockProperty(sql, propertyId)
        const stored = yield* findPlan(propertyId, id, true).pipe(
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound(id)), onSome: Effect.succeed }))
        )
        yield* requireCurrentTag(propertyId, Subject.ratePlan(id), ifMatch)
        if (stored.is_default) {
          return yield* new DefaultRatePlanProtected({ message: "The property's default rate plan cannot be deleted" })
        }
        const children = yield* liveChildren(propertyId, id)
        if (children > 0) {
          return yield* new RatePlanInUse({
            message: `${children} other rate plan(s) derive from this plan; delete or re-parent them first`
          })
        }
        yield* appendEvent(propertyId, "rate_plan.deleted", Subject.ratePlan(id))
        yield* sql`
          UPDATE rate_plans SET deleted_at = ${now}, updated_at = ${now}
          WHERE id = ${id} AND property_id = ${propertyId}`
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        withSpan("RateManagement.remove")
      )

    return { create, update, remove } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
