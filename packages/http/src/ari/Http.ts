import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Ari, InsufficientScope } from "@hotel/domain"
import { AriCalendar } from "@hotel/persistence/ari/AriCalendar"
import { AriWrites } from "@hotel/persistence/ari/AriWrites"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HotelApi } from "@hotel/api/Api"
import { CurrentApiKey } from "@hotel/api/common/Security"

const AriHandlers = HttpApiBuilder.group(HotelApi, "ari", (handlers) =>
  Effect.gen(function*() {
    const writes = yield* AriWrites
    const calendar = yield* AriCalendar
    return handlers
      .handle("write", ({ payload }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          // Read from the body before its fields are judged: a key without it is refused whatever else is wrong.
          if (Ari.carriesInventory(payload.items) && !key.hasScope("inventory:write")) {
            return yield* new InsufficientScope({ message: "An item with room_type_id needs the scope inventory:write" })
          }
          const written = yield* writes.apply(key.propertyId, payload.items)
          return { items: written.items, nights_updated: written.nightsUpdated }
        }))
      .handle("read", ({ query }) =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          return { data: yield* calendar.read(key.propertyId, query) }
        }))
  }))

/** The `ari` feature: its handlers with the services they call. */
export const HttpAriLive = AriHandlers.pipe(Layer.provide(Layer.mergeAll(AriWrites.layer, AriCalendar.layer)))
