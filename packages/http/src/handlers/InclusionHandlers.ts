import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { InclusionRepository } from "@hotel/persistence/rates/InclusionRepository"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { presentInclusion } from "../presenters/RateManagementPresenter.js"
import { CurrentApiKey } from "../Security.js"

export const InclusionHandlers = HttpApiBuilder.group(HotelApi, "inclusions", (handlers) =>
  Effect.gen(function*() {
    const inclusions = yield* InclusionRepository
    return handlers
      .handle("list", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const rows = yield* inclusions.list(key.propertyId, path.id)
          return { data: rows.map(presentInclusion) }
        }))
      .handle("replace", ({ path, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const { count } = yield* inclusions.replace(key.propertyId, path.id, payload)
          return { rate_plan_id: path.id, count }
        }))
  }))
