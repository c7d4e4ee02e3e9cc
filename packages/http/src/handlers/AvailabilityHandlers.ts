import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Inventory } from "@hotel/persistence/quotes/Inventory"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { presentAvailability } from "../presenters/QuotePresenter.js"
import { CurrentApiKey } from "../Security.js"

export const AvailabilityHandlers = HttpApiBuilder.group(HotelApi, "availability", (handlers) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    return handlers.handle("availability", ({ urlParams }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const now = new Date(yield* Clock.currentTimeMillis)
        const entries = yield* inventory.calendar(key.propertyId, {
          startDate: urlParams.start_date,
          endDate: urlParams.end_date,
          roomTypeId: urlParams.room_type_id ?? null,
          now
        })
        return { data: entries.map(presentAvailability) }
      }))
  }))
