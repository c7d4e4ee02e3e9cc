import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { StayTransitions } from "@hotel/persistence/stays/StayTransitions"
import { HotelApi } from "@hotel/api/Api"
import { presentStay } from "./StayPresenter.js"
import { CurrentApiKey } from "@hotel/api/common/Security"
import * as Layer from "effect/Layer"

const StayHandlers = HttpApiBuilder.group(HotelApi, "stay", (handlers) =>
  Effect.gen(function*() {
    const stays = yield* StayTransitions
    return handlers
      .handle("checkIn", ({ params, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentStay(yield* stays.checkIn(key.propertyId, params.id, payload.room_id ?? null))
        }))
      .handle("checkOut", ({ params }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentStay(yield* stays.checkOut(key.propertyId, params.id))
        }))
      .handle("noShow", ({ params }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentStay(yield* stays.noShow(key.propertyId, params.id))
        }))
  }))

/** The `stays` feature: its handlers with the services they call (the database, the event outbox and the clock come from outside). */
export const HttpStaysLive = StayHandlers.pipe(Layer.provide(StayTransitions.layer))
