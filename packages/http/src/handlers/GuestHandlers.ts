import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { GuestNotFound } from "@hotel/domain"
import { GuestRepository } from "@hotel/persistence/guests/GuestRepository"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { timestamp } from "../presenters/format.js"
import { CurrentApiKey } from "../Security.js"

export const GuestHandlers = HttpApiBuilder.group(HotelApi, "guests", (handlers) =>
  Effect.gen(function*() {
    const guests = yield* GuestRepository
    return handlers
      .handle("create", ({ payload }) => Effect.flatMap(CurrentApiKey, (key) => guests.create(key.propertyId, payload)))
      .handle("get", ({ path }) =>
        CurrentApiKey.pipe(
          Effect.flatMap((key) => guests.findById(key.propertyId, path.id)),
          Effect.flatten,
          Effect.mapError(() => new GuestNotFound({ message: `No guest ${path.id}` })),
          Effect.map((guest) => ({ ...guest, created_at: timestamp(guest.created_at) }))
        ))
  }))
