import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { PromoCodeRepository } from "@hotel/persistence/rates/PromoCodeRepository"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { presentPromoCode } from "../presenters/RateManagementPresenter.js"
import { CurrentApiKey } from "../Security.js"

export const PromoCodeHandlers = HttpApiBuilder.group(HotelApi, "promoCodes", (handlers) =>
  Effect.gen(function*() {
    const codes = yield* PromoCodeRepository
    return handlers
      .handle("list", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const rows = yield* codes.list(key.propertyId, path.id)
          return { data: rows.map(presentPromoCode) }
        }))
      .handle("create", ({ path, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const created = yield* codes.create(key.propertyId, path.id, payload)
          return { promo_code_id: created.id, code: created.code }
        }))
      .handle("get", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentPromoCode(yield* codes.get(key.propertyId, path.id))
        }))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          yield* codes.update(key.propertyId, path.id, payload)
          return { promo_code_id: path.id, updated: true as const }
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          yield* codes.remove(key.propertyId, path.id)
          return { promo_code_id: path.id, deleted: true as const }
        }))
  }))
