import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { InventoryControls } from "@hotel/persistence/inventory/InventoryControls"
import { OutOfOrder } from "@hotel/persistence/inventory/OutOfOrder"
import { Inventory } from "@hotel/persistence/inventory/Inventory"
import { onStandby } from "@hotel/persistence/database/StandbyReads"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HotelApi } from "@hotel/api/Api"
import { CurrentApiKey } from "@hotel/api/common/Security"
import { presentAvailability, presentPeriod } from "./InventoryPresenter.js"

const InventoryHandlers = HttpApiBuilder.group(HotelApi, "inventory", (handlers) =>
  Effect.gen(function*() {
    const periods = yield* OutOfOrder
    const controls = yield* InventoryControls
    const property = Effect.map(CurrentApiKey, (key) => key.propertyId)
    return handlers
      .handle("outOfOrder", ({ params, payload }) =>
        Effect.map(Effect.flatMap(property, (id) => periods.create(id, params.id, payload)), (created) => ({
          out_of_order_id: created.id
        })))
      .handle("listOutOfOrder", ({ query }) =>
        Effect.map(Effect.flatMap(property, (id) => periods.list(id, query)), (rows) => ({ data: rows.map(presentPeriod) })))
      .handle("deleteOutOfOrder", ({ params }) =>
        Effect.gen(function*() {
          yield* periods.remove(yield* property, params.id)
          return { out_of_order_id: params.id, deleted: true as const }
        }))
      .handle("putControls", ({ params, payload }) =>
        Effect.gen(function*() {
          const { nightsUpdated } = yield* controls.put(yield* property, params.id, payload)
          return { room_type_id: params.id, nights_updated: nightsUpdated }
        }))
      .handle("getControls", ({ params, query }) =>
        Effect.gen(function*() {
          const nights = yield* controls.get(yield* property, params.id, query)
          return { room_type_id: params.id, nights }
        }))
  }))

const AvailabilityHandlers = HttpApiBuilder.group(HotelApi, "availability", (handlers) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    return handlers.handle("availability", ({ query }) =>
      onStandby(Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const now = new Date(yield* Clock.currentTimeMillis)
        const entries = yield* inventory.calendar(key.propertyId, {
          startDate: query.start_date,
          endDate: query.end_date,
          roomTypeId: query.room_type_id ?? null,
          now
        })
        return { data: entries.map(presentAvailability) }
      })))
  }))

/** The `inventory` feature: its handlers with the services they call. */
export const HttpInventoryLive = Layer.mergeAll(AvailabilityHandlers, InventoryHandlers).pipe(
  Layer.provide(Layer.mergeAll(Inventory.layer, OutOfOrder.layer, InventoryControls.layer))
)
