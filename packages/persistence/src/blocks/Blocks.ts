import * as SqlClient from "effect/sql/SqlClient"
import {
  type BlockInUse,
  type BlockNotFound,
  Blocks as Rules,
  type InvalidParameters,
  type InvalidStatusTransition,
  type NoAvailability,
  type PreconditionFailed,
  RatePlanNotFound,
  RoomTypeNotFound
} from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { requireCurrentTag } from "../events/EntityTag.js"
import { EventOutbox, type PendingEvent } from "../events/EventOutbox.js"
import type { EventRenderer } from "../events/EventRenderer.js"
import { Subject } from "../events/EventSubject.js"
import { Inventory } from "../inventory/Inventory.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"
import { takesNights } from "../inventory/inventorySql.js"
import { type BlockRead, findBlock } from "./BlockSql.js"
import { presentBlock } from "./BlockView.js"
import { patchBlock } from "./patch.js"
import { lockBlockForWrite, lockRoomType } from "./lock.js"
import { blockEvents as eventsOf } from "./events.js"
import { counted, freeBefore, requireFreeRooms } from "./roomsSetAside.js"
import { insertBlock } from "./writes.js"

// Block writes: create, PATCH, confirm, release, cancel; each one transaction: lock, load, a pure decision
// (`Blocks` in the domain), write, events. Locks (./lock.ts, taken by `lockStay`): the block's room type (the lock
// every hold of the type takes), then the block's row; a pickup takes the same two in the same order, so a block's write
// and the holds of its type never interleave: a definite block's new units are counted against the rooms free
// at that moment, and no hold can take them meanwhile. A change that may set more rooms aside is checked
// against the rooms free for general sale counted BEFORE it (./writes.ts `requireFreeRooms`), after it is
// written and read back under the locks, so the release rule and the pickups are applied by the one query
// that reads a block.

export type BlockWriteError =
  | InvalidParameters
  | BlockNotFound
  | InvalidStatusTransition
  | BlockInUse
  | NoAvailability
  | PreconditionFailed

export class Blocks extends Context.Service<Blocks>()("@hotel/persistence/blocks/Blocks", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inventory = yield* Inventory
    const clock = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const reread = (propertyId: string, id: string, now: Date) =>
      Effect.flatMap(findBlock(sql, propertyId, id, now, false), (read) =>
        read === undefined ? Effect.die(new Error(`block ${id} vanished in its own transaction`)) : Effect.succeed(read))

    const append = (propertyId: string, events: ReadonlyArray<PendingEvent>) =>
      Effect.flatMap(EventOutbox, (outbox) => outbox.append(propertyId, events))

    /** Sets the stored status; a definite one must find its remaining units free (counted before the change). */
    const moveTo = (propertyId: string, read: BlockRead, status: Rules.BlockStatus, now: Date) =>
      Effect.gen(function*() {
        const free = yield* freeBefore(inventory, propertyId, read.block, now)
        yield* sql`
          UPDATE blocks SET status = ${status}, updated_at = ${now},
                 released_at = CASE WHEN ${status} = 'released' THEN ${now}::timestamptz ELSE released_at END
          WHERE id = ${read.block.id}`
        const after = yield* reread(propertyId, read.block.id, now)
        yield* Effect.fromResult(requireFreeRooms(free, counted(read), counted(after)))
        return after
      })

    const create = (
      propertyId: string,
      input: Rules.BlockCreate
    ): Effect.Effect<{ readonly id: string }, InvalidParameters | RoomTypeNotFound | RatePlanNotFound | NoAvailability, EventOutbox> =>
      Effect.gen(function*() {
        const now = yield* clock
        yield* Effect.fromResult(Rules.rangeNights(input.start_date, input.end_date))
        const roomType = yield* lockRoomType(sql, propertyId, input.room_type_id)
        if (roomType === undefined) return yield* new RoomTypeNotFound({ message: `No room type ${input.room_type_id}` })
        const [plan] = yield* sql<{ currency: string }>`
          SELECT currency FROM rate_plans
          WHERE property_id = ${propertyId} AND id = ${input.rate_plan_id} AND room_type_id = ${roomType.id}
            AND deleted_at IS NULL`
        if (plan === undefined) {
          return yield* new RatePlanNotFound({ message: `No rate plan ${input.rate_plan_id} of room type ${roomType.id}` })
        }
        const nights = yield* Effect.fromResult(Rules.plannedNights(input, roomType.rooms))
        const price = yield* Effect.fromResult(Rules.checkPrice(input.price ?? null, plan.currency))
        const id = yield* insertBlock(sql, { propertyId, input, price, nights, now })
        const tentative = yield* reread(propertyId, id, now)
        const after = input.status === "definite" ? yield* moveTo(propertyId, tentative, "definite", now) : tentative
        yield* append(propertyId, eventsOf("block.created", null, after))
        return { id }
      }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan("Blocks.create"))

    /** A status change (confirm, release, cancel), answering the block as `GET` writes it after (its event's data). */
    const transition = <E>(
      name: "confirm" | "release" | "cancel",
      decide: (status: Rules.BlockStatus, read: BlockRead, now: Date) => Effect.Effect<Rules.BlockStatus, E>,
      type: PendingEvent["type"]
    ) =>
    (propertyId: string, id: string, ifMatch?: string) =>
      Effect.gen(function*() {
        const now = yield* clock
        const locked = yield* lockBlockForWrite(sql, propertyId, id, now)
        yield* requireCurrentTag(propertyId, Subject.block(id), ifMatch)
        const status = yield* decide(Rules.statusOf(locked.block.status, locked.nights), locked, now)
        const after = yield* moveTo(propertyId, locked, status, now)
        const view = presentBlock(after)
        yield* append(propertyId, eventsOf(type, locked, after, view))
        return view
      }).pipe(inTransaction(sql), Effect.catchTag("SqlError", Effect.die), withSpan(`Blocks.${name}`))

    /** Release and cancel set nothing more aside, so the free-room check cannot refuse them. */
    const setsNothingAside = <A, E, R>(self: Effect.Effect<A, E | NoAvailability, R>): Effect.Effect<A, Exclude<E, NoAvailability>, R> =>
      Effect.catchIf(self, (error): error is NoAvailability => (error as { _tag?: string })._tag === "NoAvailability", Effect.die) as Effect.Effect<A, Exclude<E, NoAvailability>, R>

    /** Live pickups of the block, on any night (a pickup's stay may reach beyond the block's range). */
    const countLivePickups = (read: BlockRead, now: Date) =>
      Effect.map(
        sql<{ live: number }>`
          SELECT count(*)::int AS live FROM reservations r
          WHERE r.block_id = ${read.block.id} AND ${takesNights(sql, "r", now)}`,
        (rows) => rows[0]?.live ?? 0
      )

    const confirm = transition("confirm", (status) => Effect.fromResult(Rules.confirm(status)), "block.confirmed")
    const releaseAny = transition("release", (status) => Effect.fromResult(Rules.release(status)), "block.released")
    const release = (propertyId: string, id: string, ifMatch?: string) => setsNothingAside(releaseAny(propertyId, id, ifMatch))
    const cancelAny = transition(
      "cancel",
      (status, read, now) => Effect.flatMap(Effect.orDie(countLivePickups(read, now)), (live) => Effect.fromResult(Rules.cancel(status, live))),
      "block.cancelled"
    )
    const cancel = (propertyId: string, id: string, ifMatch?: string) => setsNothingAside(cancelAny(propertyId, id, ifMatch))
    const update = patchBlock({ sql, inventory, clock, reread, append })

    return { create, update, confirm, release, cancel } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide(Inventory.layer))
}
