import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { GuestNotFound } from "@hotel/domain"
import { GuestRepository } from "@hotel/persistence/guests/GuestRepository"
import { HotelApi } from "@hotel/api/Api"
import { presentGuest } from "@hotel/persistence/guests/GuestView"
import { CurrentApiKey } from "@hotel/api/common/Security"
import { Loyalty } from "@hotel/persistence/guests/Loyalty"
import { presentRedemption } from "../stays/StayPresenter.js"
import * as Layer from "effect/Layer"

const GuestHandlers = HttpApiBuilder.group(HotelApi, "guests", (handlers) =>
  Effect.gen(function*() {
    const guests = yield* GuestRepository
    return handlers
      .handle("create", ({ payload }) => Effect.flatMap(CurrentApiKey, (key) => guests.create(key.propertyId, payload)))
      .handle("get", ({ params }) =>
        CurrentApiKey.pipe(
          Effect.flatMap((key) => guests.findById(key.propertyId, params.id)),
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(new GuestNotFound({ message: `No guest ${params.id}` })),
            onSome: Effect.succeed
          })),
          Effect.map(presentGuest)
        ))
  }))

const LoyaltyHandlers = HttpApiBuilder.group(HotelApi, "loyalty", (handlers) =>
  Effect.gen(function*() {
    const loyalty = yield* Loyalty
    return handlers.handle("redeem", ({ params, payload }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const result = yield* loyalty.redeem(key.propertyId, params.id, {
          points: payload.points,
          reservationId: payload.reservation_id ?? null
        })
        return presentRedemption(result)
      }))
  }))

/** The `guests` feature: its handlers with the services they call (the database, the event outbox and the clock come from outside). */
export const HttpGuestsLive = Layer.mergeAll(
  GuestHandlers,
  LoyaltyHandlers
).pipe(Layer.provide(Layer.mergeAll(GuestRepository.layer, Loyalty.layer)))
