import type { Blocks } from "@hotel/domain"
import type { Block } from "@hotel/api/blocks/Api"
import type { PropertyImportResult } from "@hotel/persistence/property/PropertyImport"
import * as Effect from "effect/Effect"
import { clientOf } from "./client.js"
import type { RequestOptions } from "./http.js"
import type { TestApiService } from "./TestServer.js"

// Builders and readers shared by the blocks tests (writes, pickups, release, races).

export type BlockRequest = typeof Blocks.BlockCreate.Type
export type BlockPatch = typeof Blocks.BlockPatch.Type
export type BlockView = typeof Block.Type

/**
 * A body for `POST /blocks` on a property from `importRoomTypes`: room type `code` on `BAR-<code>`, one unit a
 * night over `start_date`..`end_date`; `over` replaces fields.
 */
export const blockBody = (
  imported: PropertyImportResult,
  code: string,
  over: Partial<BlockRequest> & Pick<BlockRequest, "start_date" | "end_date">
): BlockRequest => ({
  name: "Wedding party",
  room_type_id: imported.room_types[code],
  rate_plan_id: imported.rate_plans[`BAR-${code}`],
  units: 1,
  ...over
})

/** A block that must be created (201); answers its id. */
export const createBlock = (api: TestApiService, body: BlockRequest, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.blocks.create({ headers: {}, payload: body })).pipe(
    Effect.map((created) => created.block_id)
  )

export const getBlock = (api: TestApiService, id: string, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.blocks.get({ params: { id } }))

export const patchBlock = (api: TestApiService, id: string, body: BlockPatch, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) => client.blocks.update({ params: { id }, payload: body, headers: {} }))

/** `POST /blocks/{id}/confirm`, `release` or `cancel` that must succeed; answers the block. */
export const blockAction = (
  api: TestApiService,
  id: string,
  action: "confirm" | "release" | "cancel",
  options?: RequestOptions
) =>
  Effect.flatMap(clientOf(api, options), (client): Effect.Effect<BlockView, unknown> => {
    const request = { params: { id }, headers: {} }
    switch (action) {
      case "confirm":
        return client.blocks.confirm(request)
      case "release":
        return client.blocks.release(request)
      case "cancel":
        return client.blocks.cancel(request)
    }
  })

/** Each night's `[date, units, picked_up, remaining, released]`, compact for assertions. */
export const nightFigures = (block: BlockView) =>
  block.nights.map((night) => [night.date, night.units, night.picked_up, night.remaining, night.released] as const)

/** `GET /availability` of one room type: each night's `[date, blocked, available]`. */
export const availabilityOf = (api: TestApiService, roomTypeId: string, start: string, end: string, options?: RequestOptions) =>
  Effect.flatMap(clientOf(api, options), (client) =>
    client.availability.availability({ query: { start_date: start, end_date: end, room_type_id: roomTypeId } })).pipe(
    Effect.map(({ data }) => (data[0]?.nights ?? []).map((night) => [night.date, night.blocked, night.available] as const))
  )
