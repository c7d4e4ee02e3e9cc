// `PATCH /blocks/{id}`: name, price, notes, release times and units, in one transaction under the block's locks
// (./lock.ts). Checks: the fields (400: price in the plan's currency, nights inside the range), then the
// nights' units against what is picked up (409 `block_in_use`), then, for a definite block, the rooms it now
// sets aside beyond what it did (409 `no_availability`), counted before the change.
import type * as SqlClient from "effect/sql/SqlClient"
import { Blocks as Rules, type InvalidStatusTransition } from "@hotel/domain"
import * as Effect from "effect/Effect"
import { requireCurrentTag } from "../events/EntityTag.js"
import type { EventOutbox, PendingEvent } from "../events/EventOutbox.js"
import type { EventRenderer } from "../events/EventRenderer.js"
import { Subject } from "../events/EventSubject.js"
import type { Inventory } from "../inventory/Inventory.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"
import type { BlockRead } from "./BlockSql.js"
import type { BlockWriteError } from "./Blocks.js"
import { blockEvents } from "./events.js"
import { lockBlockForWrite } from "./lock.js"
import { counted, freeBefore, requireFreeRooms } from "./roomsSetAside.js"
import { setUnits } from "./writes.js"

interface PatchDeps {
  readonly sql: SqlClient.SqlClient
  readonly inventory: Inventory["Service"]
  readonly clock: Effect.Effect<Date>
  readonly reread: (propertyId: string, id: string, now: Date) => Effect.Effect<BlockRead, unknown>
  readonly append: (propertyId: string, events: ReadonlyArray<PendingEvent>) => Effect.Effect<void, never, EventOutbox>
}

/** A key the PATCH sent (with its value, null included) or did not. */
const sent = <A>(value: A | undefined) => ({ set: value !== undefined, value: value ?? null })

const updateFields = (sql: SqlClient.SqlClient, id: string, patch: Rules.BlockPatch, price: string | null, now: Date) => {
  const name = sent(patch.name)
  const priceSent = patch.price !== undefined
  const releaseAt = sent(patch.release_at)
  const daysBefore = sent(patch.release_days_before)
  const notes = sent(patch.notes)
  return sql`
    UPDATE blocks SET
      name = CASE WHEN ${name.set} THEN ${name.value} ELSE name END,
      price = CASE WHEN ${priceSent} THEN ${price}::numeric ELSE price END,
      release_at = CASE WHEN ${releaseAt.set} THEN ${releaseAt.value === null ? null : new Date(releaseAt.value)}::timestamptz
                        ELSE release_at END,
      release_days_before = CASE WHEN ${daysBefore.set} THEN ${daysBefore.value}::int ELSE release_days_before END,
      notes = CASE WHEN ${notes.set} THEN ${notes.value} ELSE notes END,
      updated_at = ${now}
    WHERE id = ${id}`
}

export const patchBlock = (deps: PatchDeps) =>
(
  propertyId: string,
  id: string,
  patch: Rules.BlockPatch,
  ifMatch?: string
): Effect.Effect<void, Exclude<BlockWriteError, InvalidStatusTransition>, EventOutbox | EventRenderer> =>
  Effect.gen(function*() {
    const { inventory, sql } = deps
    const now = yield* deps.clock
    const locked = yield* lockBlockForWrite(sql, propertyId, id, now)
    yield* requireCurrentTag(propertyId, Subject.block(id), ifMatch)
    const price = patch.price === undefined ? null : yield* Effect.fromResult(Rules.checkPrice(patch.price, locked.block.currency))
    const nights = yield* Effect.fromResult(Rules.patchedNights(patch, locked.nights, locked.rooms))
    const free = yield* freeBefore(inventory, propertyId, locked.block, now)
    yield* updateFields(sql, id, patch, price, now)
    yield* setUnits(sql, id, nights)
    const after = yield* Effect.orDie(deps.reread(propertyId, id, now))
    yield* Effect.fromResult(requireFreeRooms(free, counted(locked), counted(after)))
    yield* deps.append(propertyId, blockEvents("block.updated", locked, after))
  }).pipe(inTransaction(deps.sql), Effect.catchTag("SqlError", Effect.die), withSpan("Blocks.update"))
