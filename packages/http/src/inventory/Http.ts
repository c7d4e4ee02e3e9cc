import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { InventoryControls } from "@hotel/persistence/inventory/InventoryControls"
import { OutOfOrder } from "@hotel/persistence/inventory/OutOfOrder"
import { Inventory } from "@hotel/persistence/inventory/Inventory"
import { onStandby } from "@hotel/persistence/database/StandbyReads"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HotelApi } from "../Api.js"
import { CurrentApiKey } from "../common/Security.js"
import { presentAvailability, presentPeriod } from "./InventoryPresenter.js"

const InventoryHandlers = HttpApiBuilder.group(HotelApi, "inventory", (handlers) =>
  Effect.gen(function*() {
    const periods = yield* OutOfOrder
    const controls = yield* InventoryControls
    const property = Effect.map(CurrentApiKey, (key) => key.propertyId)
    return handlers
      .handle("outOfOrder", ({ path, payload }) =>
        Effect.map(Effect.flatMap(property, (id) => periods.create(id, path.id, payload)), (created) => ({
          out_of_order_id: created.id
        })))
      .handle("listOutOfOrder", ({ urlParams }) =>
        Effect.map(Effect.flatMap(property, (id) => periods.list(id, urlParams)), (rows) => ({ data: rows.map(presentPeriod) })))
      .handle("deleteOutOfOrder", ({ path }) =>
        Effect.gen(function*() {
          yield* periods.remove(yield* property, path.id)
          return { out_of_order_id: path.id, deleted: true as const }
        }))
      .handle("putControls", ({ path, payload }) =>
        Effect.gen(function*() {
          const { nightsUpdated } = yield* controls.put(yield* property, path.id, payload)
          return { room_type_id: path.id, nights_updated: nightsUpdated }
        }))
      .handle("getControls", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const nights = yield* controls.get(yield* property, path.id, urlParams)
          return { room_type_id: path.id, nights }
        }))
  }))

const AvailabilityHandlers = HttpApiBuilder.group(HotelApi, "availability", (handlers) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    return handlers.handle("availability", ({ urlParams }) =>
      onStandby(Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const now = new Date(yield* Clock.currentTimeMillis)
        const entries = yield* inventory.calendar(key.propertyId, {
          startDate: urlParams.start_date,
          endDate: urlParams.end_date,
          roomTypeId: urlParams.room_type_id ?? null,
          now
        })
        return { data: entries.map(presentAvailability) }
      })))
  }))

/** The `inventory` feature: its handlers with the services they call. */
export const HttpInventoryLive = Layer.mergeAll(AvailabilityHandlers, InventoryHandlers).pipe(
  Layer.provide(Layer.mergeAll(Inventory.Default, OutOfOrder.Default, InventoryControls.Default))
)
