import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { RateManagement } from "@hotel/persistence/rates/RateManagement"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { CurrentApiKey } from "../Security.js"

export const RatePlanWriteHandlers = HttpApiBuilder.group(HotelApi, "ratePlanWrites", (handlers) =>
  Effect.gen(function*() {
    const rates = yield* RateManagement
    return handlers
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const { id } = yield* rates.create(key.propertyId, payload)
          return { rate_plan_id: id }
        }))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          yield* rates.update(key.propertyId, path.id, payload)
          return { rate_plan_id: path.id, updated: true as const }
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          yield* rates.remove(key.propertyId, path.id)
          return { rate_plan_id: path.id, deleted: true as const }
        }))
  }))
