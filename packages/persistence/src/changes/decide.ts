import {
  Blocks,
  Booking,
  Cancellation,
  Changes,
  CurrencyMismatch,
  InvalidParameters,
  Money,
  type PartyTooLarge,
  Pricing,
  RatePlanNotFound,
  RoomTypeNotFound,
  type SalesContext
} from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { type PricingSnapshot, type SnapshotPlan, type SnapshotRoomType, toPolicy } from "../quotes/PricingInputs.js"
import type { Offer } from "../quotes/Quotes.js"
import type { ChangeFacts } from "./ChangeFacts.js"
import type { BlockRead } from "../blocks/BlockSql.js"

// The one decision of a change, used by `PATCH /reservations/{id}` (under its locks, then written) and by
// `GET /reservations/{id}/change-quote` (without locks, never written), so a quote is the change it predicts.
// `planChange` runs the checks of a hold in its order up to visibility and prices the new stay with the hold's
// own path (`Pricing.offerFor`, the nights that keep their booked amount passed as `keptNights`);
// `outcomeOf` adds the rooms free and the money.

/** A change checked and priced, waiting for the rooms free on every night of the new stay. */
export interface PlannedChange {
  readonly facts: ChangeFacts
  readonly step: Changes.ChangeStep
  readonly target: Changes.StayTerms
  readonly changed: ReadonlyArray<Changes.ChangeField>
  /** Whether the stay itself changes (room type, plan, dates, party, promo code): then it is re-priced. */
  readonly restay: Option.Option<Restay>
  readonly now: Date
}

/** The re-priced stay of a change. */
export interface Restay {
  readonly plan: SnapshotPlan
  readonly roomType: SnapshotRoomType
  readonly partyFits: Either.Either<void, PartyTooLarge>
  /** None when the visibility rule hides the plan from this key (404 `rate_plan_not_found`). */
  readonly offer: Option.Option<Offer>
  readonly kept: ReadonlyMap<Pricing.IsoDate, Money.Amount>
  readonly snapshot: PricingSnapshot
  /** The block the new stay picks up from: the reservation's, while its room type and plan stay the block's. */
  readonly blockId: string | null
}

export type PlanError = Changes.ChangeRefusal | InvalidParameters | CurrencyMismatch | RoomTypeNotFound | RatePlanNotFound

const addOnsOf = (facts: ChangeFacts, snapshot: PricingSnapshot) =>
  Effect.gen(function*() {
    const services = yield* Booking.addOnServices(snapshot, { addOns: facts.row.add_ons.map((a) => ({ serviceId: a.service_id })) })
    return facts.row.add_ons.map((addOn, i) => ({ service: services[i].model, quantity: addOn.quantity }))
  })

/** The checks of a hold up to visibility, and the new stay priced as if a room were free. */
export const planChange = (input: {
  readonly facts: ChangeFacts
  readonly change: Changes.ChangeRequest
  readonly snapshot: PricingSnapshot
  readonly salesContext: SalesContext
  readonly trace: boolean
  /** The reservation's block when it is a pickup (read by the caller, under its lock for a PATCH). */
  readonly block?: BlockRead | undefined
}) =>
  Effect.gen(function*() {
    const { facts, snapshot } = input
    const now = snapshot.now
    const row = facts.row
    const step = yield* Changes.changeStep(
      { status: row.status, holdExpiresAt: row.hold_expires_at, cancellationReason: row.cancellation_reason },
      now
    )
    const target = Changes.resolveTarget(facts.terms, input.change)
    yield* Changes.checkChange(step, facts.terms, target, snapshot.today)
    const changed = Changes.changedFields(facts.terms, target)
    const base = { facts, step, target, changed, now }
    if (!Changes.needsVisibility(changed)) return { ...base, restay: Option.none() } satisfies PlannedChange
    const roomType = snapshot.roomTypesById.get(target.roomTypeId)
    if (roomType === undefined) return yield* new RoomTypeNotFound({ message: `No room type ${target.roomTypeId}` })
    const plan = snapshot.plansById.get(target.ratePlanId)
    if (plan === undefined) return yield* new RatePlanNotFound({ message: `No rate plan ${target.ratePlanId}` })
    if (step !== "hold" && plan.currency !== row.currency) {
      return yield* new InvalidParameters({
        message: `rate_plan_id: a paid stay keeps its currency (${row.currency}); this plan is priced in ${plan.currency}`,
        param: "rate_plan_id"
      })
    }
    if (row.booking_id !== null && plan.currency !== row.currency) {
      return yield* new CurrencyMismatch({
        message: `rate_plan_id: the rooms of a booking price in one currency (${row.currency}); this plan is priced in ${plan.currency}`,
        param: "rate_plan_id"
      })
    }
    const addOns = yield* addOnsOf(facts, snapshot)
    const party: Pricing.Party = { adults: target.adults, children: target.children, childAges: target.childAges }
    const kept = Changes.keptNights(facts.terms, target, facts.lines)
    const block = input.block !== undefined &&
        Blocks.keepsBlock({ roomTypeId: input.block.block.room_type_id, ratePlanId: input.block.block.rate_plan_id }, target)
      ? input.block
      : undefined
    const offer = Pricing.offerFor({
      snapshot,
      plan,
      roomTypeId: roomType.id,
      stay: { checkIn: target.checkIn, checkOut: target.checkOut, party, promoCode: target.promoCode },
      salesContext: input.salesContext,
      available: 1,
      pricing: { trace: input.trace, keptNights: kept },
      addOns,
      pickup: block === undefined ? undefined : { price: Blocks.pickupPrice(block.block) }
    })
    const partyFits = Booking.checkPartyFits(Pricing.partySize(party), roomType.maxOccupancy)
    return { ...base, restay: Option.some({ plan, roomType, partyFits, offer, kept, snapshot, blockId: block?.block.id ?? null }) } satisfies PlannedChange
  })

/** A night of the new stay as the quote shows it. */
export interface QuotedNight extends Pricing.PricedNight {
  readonly kept: boolean
}

/** What the change would do with `available` rooms free on every night (its own nights counted as free). */
export interface ChangeOutcome {
  readonly planned: PlannedChange
  readonly currency: string
  /** None when the stay is unchanged (its lines stay as they are). */
  readonly offer: Option.Option<Offer>
  readonly nights: ReadonlyArray<QuotedNight>
  readonly lines: ReadonlyArray<Changes.PricedLine>
  readonly previousTotal: Money.Amount
  readonly total: Money.Amount
  readonly settlement: Changes.ChangeSettlement
}

const unchangedNights = (planned: PlannedChange): ReadonlyArray<QuotedNight> =>
  planned.facts.lines.flatMap((line) =>
    line.kind === "room" && line.night !== null ? [{ date: line.night, amount: line.amount, trace: [], kept: true }] : []
  )

const settlementOf = (planned: PlannedChange, total: Money.Amount): Changes.ChangeSettlement => {
  const row = planned.facts.row
  return Changes.settleChange({
    step: planned.step,
    total,
    paid: Money.fromDb(row.paid),
    tiers: toPolicy(Cancellation.tiersInForce(row.frozen_policy, row.plan_policy, row.property_policy)),
    checkIn: row.check_in_date,
    timeZone: row.timezone,
    now: planned.now,
    currency: row.currency
  })
}

export const outcomeOf = (planned: PlannedChange, available: number): ChangeOutcome => {
  const previousTotal = Money.fromDb(planned.facts.row.total)
  const unchanged = {
    planned,
    currency: planned.facts.row.currency,
    offer: Option.none(),
    nights: unchangedNights(planned),
    lines: planned.facts.lines.map((line) => ({ ...line, serviceId: line.serviceId ?? undefined, quantity: line.quantity ?? undefined })),
    previousTotal,
    total: previousTotal,
    settlement: settlementOf(planned, previousTotal)
  }
  if (Option.isNone(planned.restay)) return unchanged
  const { kept, offer } = planned.restay.value
  return Option.match(offer, {
    onNone: () => unchanged,
    onSome: (priced) => {
      const counted = Pricing.withAvailability(available)(priced)
      const quote = Option.getOrNull(counted.quote)
      const total = quote === null ? previousTotal : quote.total
      return {
        ...unchanged,
        currency: counted.currency,
        offer: Option.some(counted),
        nights: counted.nights.map((night) => ({ ...night, kept: kept.has(night.date) })),
        lines: quote === null ? [] : quote.lines,
        total,
        settlement: settlementOf(planned, total)
      }
    }
  })
}

/**
 * What the PATCH goes ahead with: `party_too_large`, then a plan this request cannot book (404
 * `rate_plan_not_found`), then no room free (409 `no_availability`), as for a hold (`Booking.bookableQuote`).
 */
export const bookedQuote = (outcome: ChangeOutcome) =>
  Effect.gen(function*() {
    const { planned } = outcome
    if (Option.isNone(planned.restay)) return Option.none<Pricing.Quote>()
    const { partyFits, plan, roomType } = planned.restay.value
    yield* partyFits
    if (Option.isNone(outcome.offer)) {
      return yield* new RatePlanNotFound({ message: `Rate plan ${plan.id} is not offered for this room type, stay or sales context` })
    }
    return Option.some(yield* Booking.bookableQuote(outcome.offer, plan, roomType, planned.target))
  })

/**
 * The terms the change would store: a promo code is kept only when the plan takes codes (as on a hold), so a
 * code sent for a plan without codes changes nothing.
 */
export const storedTarget = (planned: PlannedChange): Changes.StayTerms =>
  Option.match(planned.restay, {
    onNone: () => planned.target,
    onSome: (restay) => ({
      ...planned.target,
      promoCode: Booking.frozenPromoCode(restay.snapshot, restay.plan, planned.target.promoCode)?.code ?? null
    })
  })
