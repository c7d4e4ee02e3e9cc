import * as SqlClient from "effect/sql/SqlClient"
import { Changes as Rules, type Money, type Pricing, type ReservationNotFound, type SalesContext } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { changeFacts } from "./ChangeFacts.js"
import { type ChangeOutcome, decideChange } from "./decide.js"
import { Inventory } from "../inventory/Inventory.js"
import { findBlock } from "../blocks/BlockSql.js"
import { PricingInputs } from "../quotes/PricingInputs.js"
import { withSpan } from "../database/Span.js"

// `GET /reservations/{id}/change-quote`: what `PATCH /reservations/{id}` with the same values would do now,
// changing nothing. It reads what the change reads (without its locks) and runs the change's own decision
// (`planChange`, `outcomeOf`); what `/rates` reports as a reason (rooms, length of stay, windows, closures,
// promo code, party) is a reason here, and a plan this key cannot book at all is 404 `rate_plan_not_found`.

export interface ChangeQuoteResult {
  readonly reservationId: string
  readonly outcome: ChangeOutcome
  readonly reasons: ReadonlyArray<Pricing.OfferReason>
  readonly bookable: boolean
  readonly difference: Money.Amount
}

export type ChangeQuoteError =
  | ReservationNotFound
  | Rules.PlanError

export class ChangeQuote extends Context.Service<ChangeQuote>()("@hotel/persistence/changes/ChangeQuote", {
  make: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const inputs = yield* PricingInputs
    const inventory = yield* Inventory

    const quote = (
      actor: { readonly propertyId: string; readonly salesContext: SalesContext },
      id: string,
      request: Rules.ChangeRequest,
      trace: boolean
    ): Effect.Effect<ChangeQuoteResult, ChangeQuoteError> =>
      Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        const facts = yield* changeFacts(sql, actor.propertyId, id, "read")
        const start = yield* Effect.fromResult(Rules.startChange(facts.reservation, request, now))
        const block = facts.row.block_id === null ? undefined : yield* findBlock(sql, actor.propertyId, facts.row.block_id, now, false)
        const decided = yield* decideChange({ inputs, inventory }, actor, facts, start, block, { trace, now })
        const outcome = yield* Effect.fromResult(Rules.offeredOutcome(decided.outcome))
        const reasons = Option.match(outcome.offer, { onNone: () => [], onSome: (offer) => offer.reasons })
        return {
          reservationId: facts.row.id,
          outcome,
          reasons,
          bookable: reasons.length === 0,
          difference: Rules.difference(outcome.total, outcome.previousTotal)
        }
      }).pipe(
        Effect.catchTag("SqlError", Effect.die),
        withSpan("ChangeQuote.quote")
      )

    return { quote } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([PricingInputs.layer, Inventory.layer]))
}
