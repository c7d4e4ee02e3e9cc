import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { IntervalRepository } from "@hotel/persistence/rates/IntervalRepository"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { presentInterval } from "../presenters/RateManagementPresenter.js"
import { CurrentApiKey } from "../Security.js"

export const IntervalHandlers = HttpApiBuilder.group(HotelApi, "intervals", (handlers) =>
  Effect.gen(function*() {
    const intervals = yield* IntervalRepository
    return handlers
      .handle("list", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const rows = yield* intervals.list(key.propertyId, path.id)
          return { data: rows.map(presentInterval) }
        }))
      .handle("create", ({ path, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const { id } = yield* intervals.create(key.propertyId, path.id, payload)
          return { interval_id: id }
        }))
      .handle("get", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentInterval(yield* intervals.get(key.propertyId, path.id))
        }))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          yield* intervals.update(key.propertyId, path.id, payload)
          return { interval_id: path.id, updated: true as const }
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          yield* intervals.remove(key.propertyId, path.id)
          return { interval_id: path.id, deleted: true as const }
        }))
  }))
