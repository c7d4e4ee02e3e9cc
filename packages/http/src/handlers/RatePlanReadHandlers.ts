import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { RatePlanNotFound } from "@hotel/domain"
import { RatePlanRepository } from "@hotel/persistence/rates/RatePlanRepository"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { presentRatePlan } from "../presenters/RatePlanPresenter.js"
import { CurrentApiKey } from "../Security.js"

export const RatePlanReadHandlers = HttpApiBuilder.group(HotelApi, "ratePlanReads", (handlers) =>
  Effect.gen(function*() {
    const plans = yield* RatePlanRepository
    return handlers
      .handle("list", () =>
        CurrentApiKey.pipe(
          Effect.flatMap((key) => plans.list(key.propertyId)),
          Effect.map((rows) => ({ data: rows.map(presentRatePlan) }))
        ))
      .handle("get", ({ path }) =>
        CurrentApiKey.pipe(
          Effect.flatMap((key) => plans.findById(key.propertyId, path.id)),
          Effect.flatten,
          Effect.mapError(() => new RatePlanNotFound({ message: `No rate plan ${path.id}` })),
          Effect.map(presentRatePlan)
        ))
  }))
