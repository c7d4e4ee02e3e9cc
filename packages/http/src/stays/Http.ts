import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { StayTransitions } from "@hotel/persistence/stays/StayTransitions"
import { HotelApi } from "../Api.js"
import { presentStay } from "./StayPresenter.js"
import { CurrentApiKey } from "../common/Security.js"
import * as Layer from "effect/Layer"

const StayHandlers = HttpApiBuilder.group(HotelApi, "stay", (handlers) =>
  Effect.gen(function*() {
    const stays = yield* StayTransitions
    return handlers
      .handle("checkIn", ({ path, payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentStay(yield* stays.checkIn(key.propertyId, path.id, payload.room_id ?? null))
        }))
      .handle("checkOut", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentStay(yield* stays.checkOut(key.propertyId, path.id))
        }))
      .handle("noShow", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentStay(yield* stays.noShow(key.propertyId, path.id))
        }))
  }))

/** The `stays` feature: its handlers with the services they call (the database, the event outbox and the clock come from outside). */
export const HttpStaysLive = StayHandlers.pipe(Layer.provide(StayTransitions.Default))
