import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { BlockNotFound } from "@hotel/domain"
import { BlockRepository } from "@hotel/persistence/blocks/BlockRepository"
import { Blocks } from "@hotel/persistence/blocks/Blocks"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { HotelApi } from "@hotel/api/Api"
import { taggedJson } from "../platform/ConditionalRead.js"
import { Block } from "@hotel/api/blocks/Api"
import { CurrentApiKey } from "@hotel/api/common/Security"
import { presentBlock } from "@hotel/persistence/blocks/BlockView"

const BlockHandlers = HttpApiBuilder.group(HotelApi, "blocks", (handlers) =>
  Effect.gen(function*() {
    const blocks = yield* Blocks
    const reads = yield* BlockRepository
    const property = Effect.map(CurrentApiKey, (key) => key.propertyId)
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))
    return handlers
      .handle("create", ({ payload }) =>
        Effect.map(Effect.flatMap(property, (id) => blocks.create(id, payload)), (created) => ({ block_id: created.id })))
      .handle("list", ({ query }) =>
        Effect.gen(function*() {
          const rows = yield* reads.list(yield* property, query.status, yield* now)
          return { data: rows.map(presentBlock) }
        }))
      .handle("get", ({ params }) =>
        Effect.gen(function*() {
          const found = yield* reads.get(yield* property, params.id, yield* now)
          return yield* Option.match(found, {
            onNone: () => Effect.fail(new BlockNotFound({ message: `No block ${params.id}` })),
            onSome: (read) => Effect.succeed(taggedJson(Block, presentBlock(read)))
          })
        }))
      .handle("update", ({ headers, params, payload }) =>
        Effect.gen(function*() {
          yield* blocks.update(yield* property, params.id, payload, headers["if-match"])
          return { block_id: params.id, updated: true as const }
        }))
      .handle("confirm", ({ headers, params }) =>
        Effect.flatMap(property, (id) => blocks.confirm(id, params.id, headers["if-match"])))
      .handle("release", ({ headers, params }) =>
        Effect.flatMap(property, (id) => blocks.release(id, params.id, headers["if-match"])))
      .handle("cancel", ({ headers, params }) =>
        Effect.flatMap(property, (id) => blocks.cancel(id, params.id, headers["if-match"])))
  }))

/** The `blocks` feature: its handlers with the services they call. */
export const HttpBlocksLive = BlockHandlers.pipe(Layer.provide(Layer.mergeAll(Blocks.layer, BlockRepository.layer)))
