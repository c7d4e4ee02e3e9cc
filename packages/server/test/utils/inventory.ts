import type { Inventory } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { clientOf } from "./client.js"
import type { RequestOptions } from "./http.js"
import type { TestApiService } from "./TestServer.js"

// Builders and readers shared by the inventory-controls tests (out of order, sell limits and overbooking).

/** The rooms of a room type as `GET /room-types` lists them, by number. */
export const roomsOf = (api: TestApiService, roomTypeId: string, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.catalog.roomTypes()).pipe(
    Effect.map(({ data }) => [...(data.find((type) => type.id === roomTypeId)?.rooms ?? [])].sort((a, b) => a.number.localeCompare(b.number)))
  )

/** A period out of order that must be created (201); answers its id. */
export const takeOutOfOrder = (
  api: TestApiService,
  roomId: string,
  body: typeof Inventory.OutOfOrderCreate.Type,
  options?: RequestOptions
) =>
  Effect.flatMap(clientOf(api, options), (client) => client.inventory.outOfOrder({ headers: {}, params: { id: roomId }, payload: body })).pipe(
    Effect.map((created) => created.out_of_order_id)
  )

/** `GET /out-of-order` of a range (`end_date` exclusive), optionally of one room type; answers the periods. */
export const outOfOrderPeriods = (
  api: TestApiService,
  params: typeof Inventory.OutOfOrderListParams.Type,
  options?: RequestOptions
) =>
  Effect.flatMap(clientOf(api, options), (client) => client.inventory.listOutOfOrder({ query: params })).pipe(
    Effect.map(({ data }) => data)
  )

/** `DELETE /out-of-order/{id}` that must succeed: the room is back in service. */
export const backInService = (api: TestApiService, id: string, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.inventory.deleteOutOfOrder({ headers: {}, params: { id } }))

/** A PUT of a room type's controls that must succeed; answers `nights_updated`. */
export const putControls = (
  api: TestApiService,
  roomTypeId: string,
  body: typeof Inventory.InventoryPut.Type,
  options?: RequestOptions
) =>
  Effect.flatMap(clientOf(api, options), (client) => client.inventory.putControls({ headers: {}, params: { id: roomTypeId }, payload: body })).pipe(
    Effect.map((answer) => answer.nights_updated)
  )

/** `GET /availability` of one room type: each night's whole breakdown. */
export const breakdown = (api: TestApiService, roomTypeId: string, start: string, end: string, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) =>
    client.availability.availability({ query: { start_date: start, end_date: end, room_type_id: roomTypeId } })).pipe(
    Effect.map(({ data }) => data[0]?.nights ?? [])
  )
