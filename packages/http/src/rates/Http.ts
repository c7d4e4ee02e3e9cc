import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { RatePlanNotFound } from "@hotel/domain"
import { RatePlanRepository } from "@hotel/persistence/rates/RatePlanRepository"
import { HotelApi } from "@hotel/api/Api"
import { presentRatePlan } from "@hotel/persistence/rates/RatePlanView"
import { CurrentApiKey } from "@hotel/api/common/Security"
import { RateManagement } from "@hotel/persistence/rates/RateManagement"
import { IntervalRepository } from "@hotel/persistence/rates/IntervalRepository"
import { presentInterval, presentInclusion, presentPromoCode } from "@hotel/persistence/rates/RateManagementView"
import { InclusionRepository } from "@hotel/persistence/rates/InclusionRepository"
import { PromoCodeRepository } from "@hotel/persistence/rates/PromoCodeRepository"
import * as Layer from "effect/Layer"
import { onStandby } from "@hotel/persistence/database/StandbyReads"

const RatePlanReadHandlers = HttpApiBuilder.group(HotelApi, "ratePlanReads", (handlers) =>
  Effect.gen(function*() {
    const plans = yield* RatePlanRepository
    // Rate plan reads may be a moment stale (a write's `If-Match` is checked on the primary): a standby may
    // serve them.
    return handlers
      .handle("list", () =>
        onStandby(CurrentApiKey.pipe(
          Effect.flatMap((key) => plans.list(key.propertyId)),
          Effect.map((rows) => ({ data: rows.map(presentRatePlan) }))
        )))
      .handle("get", ({ params }) =>
        onStandby(CurrentApiKey.pipe(
          Effect.flatMap((key) => plans.findById(key.propertyId, params.id)),
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(new RatePlanNotFound({ message: `No rate plan ${params.id}` })),
            onSome: Effect.succeed
          })),
          Effect.map(presentRatePlan)
        )))
  }))

const RatePlanWriteHandlers = HttpApiBuilder.group(HotelApi, "ratePlanWrites", (handlers) =>
  Effect.gen(function*() {
    const rates = yield* RateManagement
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const { id } = yield* rates.create(key.propertyId, payload)
          return { rate_plan_id: id }
        }))
      .handle("update", ({ headers, params, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          yield* rates.update(key.propertyId, params.id, payload, headers["if-match"])
          return { rate_plan_id: params.id, updated: true as const }
        }))
      .handle("delete", ({ headers, params }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          yield* rates.remove(key.propertyId, params.id, headers["if-match"])
          return { rate_plan_id: params.id, deleted: true as const }
        }))
  }))

const IntervalHandlers = HttpApiBuilder.group(HotelApi, "intervals", (handlers) =>
  Effect.gen(function*() {
    const intervals = yield* IntervalRepository
    return handlers
      .handle("list", ({ params }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const rows = yield* intervals.list(key.propertyId, params.id)
          return { data: rows.map(presentInterval) }
        }))
      .handle("create", ({ params, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const { id } = yield* intervals.create(key.propertyId, params.id, payload)
          return { interval_id: id }
        }))
      .handle("get", ({ params }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentInterval(yield* intervals.get(key.propertyId, params.id))
        }))
      .handle("update", ({ headers, params, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          yield* intervals.update(key.propertyId, params.id, payload, headers["if-match"])
          return { interval_id: params.id, updated: true as const }
        }))
      .handle("delete", ({ headers, params }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          yield* intervals.remove(key.propertyId, params.id, headers["if-match"])
          return { interval_id: params.id, deleted: true as const }
        }))
  }))

const InclusionHandlers = HttpApiBuilder.group(HotelApi, "inclusions", (handlers) =>
  Effect.gen(function*() {
    const inclusions = yield* InclusionRepository
    return handlers
      .handle("list", ({ params }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const rows = yield* inclusions.list(key.propertyId, params.id)
          return { data: rows.map(presentInclusion) }
        }))
      .handle("replace", ({ params, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const { count } = yield* inclusions.replace(key.propertyId, params.id, payload)
          return { rate_plan_id: params.id, count }
        }))
  }))

const PromoCodeHandlers = HttpApiBuilder.group(HotelApi, "promoCodes", (handlers) =>
  Effect.gen(function*() {
    const codes = yield* PromoCodeRepository
    return handlers
      .handle("list", ({ params }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const rows = yield* codes.list(key.propertyId, params.id)
          return { data: rows.map(presentPromoCode) }
        }))
      .handle("create", ({ params, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const created = yield* codes.create(key.propertyId, params.id, payload)
          return { promo_code_id: created.id, code: created.code }
        }))
      .handle("get", ({ params }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentPromoCode(yield* codes.get(key.propertyId, params.id))
        }))
      .handle("update", ({ headers, params, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          yield* codes.update(key.propertyId, params.id, payload, headers["if-match"])
          return { promo_code_id: params.id, updated: true as const }
        }))
      .handle("delete", ({ headers, params }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          yield* codes.remove(key.propertyId, params.id, headers["if-match"])
          return { promo_code_id: params.id, deleted: true as const }
        }))
  }))

/** The `rates` feature: its handlers with the services they call (the database, the event outbox and the clock come from outside). */
export const HttpRatesLive = Layer.mergeAll(
  RatePlanReadHandlers,
  RatePlanWriteHandlers,
  IntervalHandlers,
  InclusionHandlers,
  PromoCodeHandlers
).pipe(Layer.provide(Layer.mergeAll(RatePlanRepository.layer, RateManagement.layer, IntervalRepository.layer, InclusionRepository.layer, PromoCodeRepository.layer)))
