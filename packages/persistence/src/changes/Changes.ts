import * as SqlClient from "@effect/sql/SqlClient"
import {
  Changes as Rules,
  type CurrencyMismatch,
  type InvalidParameters,
  type NoAvailability,
  type PartyTooLarge,
  type PreconditionFailed,
  type RatePlanNotFound,
  type ReservationNotFound,
  type RoomTypeNotFound,
  type SalesContext,
  type ServiceNotFound
} from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { changeFacts } from "./ChangeFacts.js"
import { bookedQuote, outcomeOf, planChange, storedTarget } from "./decide.js"
import { writeChange } from "./writes.js"
import { lockRoomTypes, snapshotFor } from "./locks.js"
import type { BlockRead } from "../blocks/BlockSql.js"
import { lockPickupBlocks } from "../blocks/lock.js"
import { Inventory } from "../quotes/Inventory.js"
import { PricingInputs } from "../quotes/PricingInputs.js"
import { ReservationReads, type ReservationRecord } from "../booking/ReservationReads.js"
import { requireCurrentTag } from "../events/EntityTag.js"
import type { EventOutbox } from "../events/EventOutbox.js"
import type { EventRenderer } from "../events/EventRenderer.js"
import { Subject } from "../events/EventSubject.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// `PATCH /reservations/{id}`: one transaction. It locks the reservation row first (the lock confirm, cancel,
// check-in and payments take, so none of them interleaves with a change). A change of the stay then locks the room
// types of the old and the new stay (in id order, `FOR NO KEY UPDATE`: the lock holds and confirms take, so two
// changes, or a change and a hold, racing for the last room run one at a time) and, with a promo code, the
// plan's codes (their redemption counts are read under them, this reservation's own not counted). Lock order:
// reservation row → room types (id order) → the pickup's block → promo codes. A pickup keeps its block while its
// room type and plan stay the block's (`Blocks.keepsBlock`): then its nights count the block's units and the
// block's price, as its hold did; otherwise it becomes an ordinary reservation (`block_id` cleared). Holds lock guest → key → room type → promo codes and
// never wait on a reservation row; confirm and check-in lock reservation → room type. No cycle.
//
// The decision is `planChange` / `outcomeOf` (./decide.ts), the same the change quote runs: the status, the field
// rules, the 404s, then `If-Match` (412), then the party, the plan's visibility and the rooms. The availability of
// the new stay is counted without this reservation (its own nights count as free for it).

export interface ChangeActor {
  readonly propertyId: string
  readonly salesContext: SalesContext
}

export type ChangeError =
  | ReservationNotFound
  | CurrencyMismatch
  | Rules.ChangeRefusal
  | PreconditionFailed
  | InvalidParameters
  | RoomTypeNotFound
  | RatePlanNotFound
  | ServiceNotFound
  | PartyTooLarge
  | NoAvailability

export class Changes extends Effect.Service<Changes>()("@hotel/persistence/changes/Changes", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inputs = yield* PricingInputs
    const inventory = yield* Inventory
    const reads = yield* ReservationReads

    const change = (
      actor: ChangeActor,
      id: string,
      request: Rules.ChangeRequest,
      ifMatch?: string
    ): Effect.Effect<ReservationRecord, ChangeError, EventOutbox | EventRenderer> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const facts = yield* changeFacts(sql, actor.propertyId, id, "lock")
        const row = facts.row
        // The status first, so a refused change never queues on the room types' locks.
        yield* Rules.changeStep(
          { status: row.status, holdExpiresAt: row.hold_expires_at, cancellationReason: row.cancellation_reason },
          now
        )
        const target = Rules.resolveTarget(facts.terms, request)
        let block: BlockRead | undefined
        if (Rules.needsVisibility(Rules.changedFields(facts.terms, target))) {
          yield* lockRoomTypes(sql, actor.propertyId, [row.room_type_id, target.roomTypeId])
          // A pickup's block after the room types (the order of holds and block writes, ../blocks/lock.ts).
          const blocks = yield* lockPickupBlocks(sql, actor.propertyId, row.block_id === null ? [] : [row.block_id], now)
          block = row.block_id === null ? undefined : blocks.get(row.block_id)
          if (target.promoCode !== null) yield* inputs.lockPromoCodes(actor.propertyId, target.ratePlanId)
        }
        const snapshot = yield* snapshotFor(inputs, actor.propertyId, facts, target, now)
        const planned = yield* planChange({ facts, change: request, snapshot, salesContext: actor.salesContext, trace: false, block })
        // `If-Match` names the tag of `GET /reservations/{id}`, rendered under the row lock: after the status,
        // the field rules and the 404s, before the rules of the stay (party, plan, rooms).
        yield* requireCurrentTag(actor.propertyId, Subject.reservation(row.id), ifMatch)
        if (planned.changed.length === 0) return yield* reads.get(actor.propertyId, row.id)
        // Only a new stay reads the inventory; a change that keeps the stay needs no room of it.
        const { stock, available } = yield* Option.match(planned.restay, {
          onNone: () => Effect.succeed({ stock: undefined, available: 1 }),
          onSome: (restay) =>
            Effect.map(inventory.available(actor.propertyId, {
              roomTypeId: target.roomTypeId,
              from: target.checkIn,
              to: target.checkOut,
              now,
              excludeReservationId: row.id,
              blockId: restay.blockId
            }), ([found]) => ({ stock: found, available: found?.available ?? 0 }))
        })
        const outcome = outcomeOf(planned, available)
        const quote = yield* bookedQuote(outcome)
        if (Rules.changedFields(facts.terms, storedTarget(planned)).length === 0) return yield* reads.get(actor.propertyId, row.id)
        yield* writeChange(sql, actor.propertyId, outcome, Option.getOrNull(quote), stock?.nights.map((night) => night.overbooking) ?? [], now)
        return yield* reads.get(actor.propertyId, row.id)
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        withSpan("Changes.change")
      )

    return { change } as const
  }),
  dependencies: [PricingInputs.Default, Inventory.Default, ReservationReads.Default]
}) {}
