import * as SqlClient from "effect/sql/SqlClient"
import { Blocks } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { blockColumns, type BlockRead, type BlockRow, findBlock, withNights } from "./BlockSql.js"
import { withSpan } from "../database/Span.js"

// Block reads (`GET /blocks`, `GET /blocks/{id}`, an event's data): each block with its nights at `now`.

export class BlockRepository extends Context.Service<BlockRepository>()("@hotel/persistence/blocks/BlockRepository", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const get = (propertyId: string, id: string, now: Date): Effect.Effect<Option.Option<BlockRead>> =>
      findBlock(sql, propertyId, id, now, false).pipe(
        Effect.map(Option.fromNullishOr),
        Effect.orDie,
        withSpan("BlockRepository.get")
      )

    /**
     * The property's blocks by `start_date` (then creation), filtered by status as a read shows it: a block
     * whose every night is released reads `released`, so the filter is applied to the read blocks.
     */
    const list = (
      propertyId: string,
      status: Blocks.BlockStatus | undefined,
      now: Date
    ): Effect.Effect<ReadonlyArray<BlockRead>> =>
      Effect.gen(function*() {
        const rows = yield* sql<BlockRow>`
          SELECT ${blockColumns(sql)} FROM blocks b JOIN rate_plans rp ON rp.id = b.rate_plan_id
          WHERE b.property_id = ${propertyId}
          ORDER BY b.start_date, b.created_at, b.id`
        const reads = yield* withNights(sql, rows, now)
        return status === undefined ? reads : reads.filter((read) => Blocks.statusOf(read.block.status, read.nights) === status)
      }).pipe(Effect.orDie, withSpan("BlockRepository.list"))

    return { get, list } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
