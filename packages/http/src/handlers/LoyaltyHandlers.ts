import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Loyalty } from "@hotel/persistence/guests/Loyalty"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { presentRedemption } from "../presenters/StayPresenter.js"
import { CurrentApiKey } from "../Security.js"

export const LoyaltyHandlers = HttpApiBuilder.group(HotelApi, "loyalty", (handlers) =>
  Effect.gen(function*() {
    const loyalty = yield* Loyalty
    return handlers.handle("redeem", ({ path, payload }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const result = yield* loyalty.redeem(key.propertyId, path.id, {
          points: payload.points,
          reservationId: payload.reservation_id ?? null
        })
        return presentRedemption(result)
      }))
  }))
