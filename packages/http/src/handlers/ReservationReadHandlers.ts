import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { ReservationReads } from "@hotel/persistence/booking/ReservationReads"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { presentListItem, presentReservation } from "../presenters/ReservationPresenter.js"
import { CurrentApiKey } from "../Security.js"

export const ReservationReadHandlers = HttpApiBuilder.group(HotelApi, "reservationReads", (handlers) =>
  Effect.gen(function*() {
    const reservations = yield* ReservationReads
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const page = yield* reservations.list(key.propertyId, {
            guestId: urlParams.guest_id,
            status: urlParams.status,
            limit: urlParams.limit ?? 25,
            offset: urlParams.offset ?? 0
          })
          return { has_more: page.hasMore, data: page.records.map(presentListItem) }
        }))
      .handle("get", ({ path }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return presentReservation(yield* reservations.get(key.propertyId, path.id))
        }))
  }))
