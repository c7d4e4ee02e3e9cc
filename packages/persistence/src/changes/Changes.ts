import * as SqlClient from "effect/sql/SqlClient"
import {
  Changes as Rules,
  type NoAvailability,
  type PartyTooLarge,
  type PreconditionFailed,
  type ReservationNotFound,
  type SalesContext
} from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { changeFacts } from "./ChangeFacts.js"
import { decideChange } from "./decide.js"
import { writeChange } from "./writes.js"
import type { BlockRead } from "../blocks/BlockSql.js"
import { lockStay } from "../booking/stayLocks.js"
import { Inventory } from "../inventory/Inventory.js"
import { PricingInputs } from "../quotes/PricingInputs.js"
import { ReservationReads } from "../booking/ReservationReads.js"
import { presentReservation, type ReservationView } from "../booking/ReservationView.js"
import { requireCurrentTag } from "../events/EntityTag.js"
import type { EventOutbox } from "../events/EventOutbox.js"
import type { EventRenderer } from "../events/EventRenderer.js"
import { Subject } from "../events/EventSubject.js"
import { withSpan } from "../database/Span.js"
import { inTransaction } from "../database/Transaction.js"

// `PATCH /reservations/{id}`: one transaction. It locks the reservation row first (the lock confirm, cancel,
// check-in and payments take, so none of them interleaves with a change). A change of the stay then locks the room
// types of the old and the new stay (the lock holds and confirms take, so two changes, or a change and a hold,
// racing for the last room run one at a time), the pickup's block and, with a promo code, the plan's codes (their
// redemption counts are read under them, this reservation's own not counted): `lockStay`
// (../booking/stayLocks.ts), which holds the order. A pickup keeps its block while its room type and plan stay
// the block's (`Blocks.keepsBlock`): then its nights count the block's units and the block's price, as its hold
// did; otherwise it becomes an ordinary reservation (`block_id` cleared).
//
// The decision is the domain's (`Changes.startChange`, `planChange`, `outcomeOf`, `bookedQuote`), run by
// `decideChange` (./decide.ts) as the change quote runs it: the status, the field rules, the 404s, then `If-Match`
// (412), then the party, the plan's visibility and the rooms. The rooms of the new
// stay are counted without this reservation, a night it already holds of the same type kept as a confirm keeps a
// live hold's (./rooms.ts).

export interface ChangeActor {
  readonly propertyId: string
  readonly salesContext: SalesContext
}

export type ChangeError =
  | ReservationNotFound
  | Rules.PlanError
  | PreconditionFailed
  | PartyTooLarge
  | NoAvailability

export class Changes extends Context.Service<Changes>()("@hotel/persistence/changes/Changes", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inputs = yield* PricingInputs
    const inventory = yield* Inventory
    const reads = yield* ReservationReads
    /** The reservation as `GET` writes it, in the change's transaction: the answer and the event's data. */
    const answer = (propertyId: string, id: string) =>
      Effect.map(Effect.orDie(reads.get(propertyId, id)), presentReservation)

    const change = (
      actor: ChangeActor,
      id: string,
      request: Rules.ChangeRequest,
      ifMatch?: string
    ): Effect.Effect<ReservationView, ChangeError, EventOutbox | EventRenderer> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const facts = yield* changeFacts(sql, actor.propertyId, id, "lock")
        const row = facts.row
        // The status first, so a refused change never queues on the room types' locks.
        const start = yield* Effect.fromResult(Rules.startChange(facts.reservation, request, now))
        let block: BlockRead | undefined
        if (Rules.needsVisibility(start.changed)) {
          const locks = yield* lockStay(sql, actor.propertyId, {
            roomTypes: [row.room_type_id, start.target.roomTypeId],
            blocks: row.block_id === null ? [] : [row.block_id],
            promoCodesOf: start.target.promoCode === null ? [] : [start.target.ratePlanId],
            now
          }, "reservation")
          block = row.block_id === null ? undefined : locks.blocks.get(row.block_id)
        }
        const { outcome, rooms } = yield* decideChange({ inputs, inventory }, actor, facts, start, block, { trace: false, now })
        // `If-Match` names the tag of `GET /reservations/{id}`, rendered under the row lock: after the status,
        // the field rules and the 404s, before the rules of the stay (party, plan, rooms).
        yield* requireCurrentTag(actor.propertyId, Subject.reservation(row.id), ifMatch)
        if (start.changed.length > 0) {
          const quote = yield* Rules.bookedQuote(outcome, rooms.available)
          if (Rules.changedFields(facts.reservation.terms, Rules.storedTarget(outcome.planned)).length > 0) {
            const written = answer(actor.propertyId, row.id)
            return yield* writeChange(sql, actor.propertyId, facts, outcome, Option.getOrNull(quote), rooms.heldOverbooking, now, written)
          }
        }
        return yield* answer(actor.propertyId, row.id)
      }).pipe(
        inTransaction(sql),
        Effect.catchTag("SqlError", Effect.die),
        withSpan("Changes.change")
      )

    return { change } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([PricingInputs.layer, Inventory.layer, ReservationReads.layer]))
}
