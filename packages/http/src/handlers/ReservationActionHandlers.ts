import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Cancellations } from "@hotel/persistence/booking/Cancellations"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { presentCancellation } from "../presenters/BookingPresenter.js"
import { CurrentApiKey } from "../Security.js"

export const ReservationActionHandlers = HttpApiBuilder.group(HotelApi, "reservationActions", (handlers) =>
  Effect.gen(function*() {
    const cancellations = yield* Cancellations
    return handlers.handle("cancel", ({ path, payload }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const result = yield* cancellations.cancel(key.propertyId, path.id, payload.reason ?? null)
        return presentCancellation(result)
      }))
  }))
