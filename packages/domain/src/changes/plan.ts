// The one decision of a change, used by `PATCH /reservations/{id}` (under its locks, then written) and by
// `GET /reservations/{id}/change-quote` (without locks, never written), so a quote is the change it predicts.
// `startChange` resolves the request once (who may change, the target terms, the fields changed); `planChange`
// runs the field rules and prices the new stay as the request for a stay it is (`Booking.checkStay`): a change's
// own rules after the plan (a paid stay and a booking's room keep their currency), its add-ons kept as they are,
// the nights that keep their booked amount, and the block a pickup keeps.
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Option from "effect/Option"
import { CurrencyMismatch } from "../errors/BusinessErrors.js"
import type { RatePlanNotFound, RoomTypeNotFound, ServiceNotFound } from "../errors/NotFoundErrors.js"
import { InvalidParameters } from "../errors/RequestErrors.js"
import type { Amount } from "../money/Money.js"
import { frozenPromoCode } from "../booking/holdPromoCode.js"
import {
  type CheckedStay,
  checkStay,
  type StayAddOn,
  type StayCatalogue,
  type StayPlan,
  type StayRoomType
} from "../booking/stayRequest.js"
import { keepsBlock, type PickupBlock } from "../blocks/lifecycle.js"
import type { IsoDate } from "../quotes/dates.js"
import type { CancellationTier } from "../quotes/model.js"
import type { SalesContext } from "../platform/ApiKey.js"
import { keptNights, type StayLine } from "./pricing.js"
import {
  type ChangeField,
  type ChangeRefusal,
  type ChangeRequest,
  changedFields,
  changeStep,
  type ChangeStep,
  checkChange,
  needsVisibility,
  resolveTarget,
  type StayTerms
} from "./target.js"

/** What refuses a change before the rooms are counted: who may change, the field rules, the 404s, the currency. */
export type PlanError =
  | ChangeRefusal
  | InvalidParameters
  | CurrencyMismatch
  | RoomTypeNotFound
  | RatePlanNotFound
  | ServiceNotFound

/** A reservation as a change decides on it (persistence loads and maps it). */
export interface ChangedReservation {
  readonly status: string
  readonly holdExpiresAt: Date | null
  readonly cancellationReason: string | null
  readonly terms: StayTerms
  /** The stay's current priced lines (those no reversal names). */
  readonly lines: ReadonlyArray<StayLine>
  readonly currency: string
  readonly total: Amount
  /** What was paid towards the stay in the reservation currency (`Folio.paidTowardsStay`). */
  readonly paid: Amount
  /** Whether it is a room of a booking (whose rooms price in one currency). */
  readonly inBooking: boolean
  /** The cancellation policy in force (frozen on it, else its plan's, else the property's). */
  readonly policy: ReadonlyArray<CancellationTier>
  readonly timeZone: string
  readonly addOns: ReadonlyArray<StayAddOn>
}

/** The request resolved against the reservation: computed once per change. */
export interface ChangeStart {
  readonly step: ChangeStep
  readonly target: StayTerms
  readonly changed: ReadonlyArray<ChangeField>
}

/** Who may change the reservation (409 first), the terms it would have and the fields that differ. */
export const startChange = (
  reservation: ChangedReservation,
  request: ChangeRequest,
  now: Date
): Result.Result<ChangeStart, ChangeRefusal> =>
  Result.map(changeStep(reservation, now), (step) => {
    const target = resolveTarget(reservation.terms, request)
    return { step, target, changed: changedFields(reservation.terms, target) }
  })

/** The re-priced stay of a change. */
export interface Restay<P extends StayPlan = StayPlan, R extends StayRoomType = StayRoomType> {
  readonly checked: CheckedStay<P, R>
  readonly kept: ReadonlyMap<IsoDate, Amount>
  readonly catalogue: StayCatalogue<P, R>
  /** The block the new stay picks up from: the reservation's, while its room type and plan stay the block's. */
  readonly blockId: string | null
}

/** A change checked and priced, waiting for the rooms free on every night of the new stay. */
export interface PlannedChange<P extends StayPlan = StayPlan, R extends StayRoomType = StayRoomType> extends ChangeStart {
  readonly reservation: ChangedReservation
  /** Whether the stay itself changes (room type, plan, dates, party, promo code): then it is re-priced. */
  readonly restay: Option.Option<Restay<P, R>>
  readonly now: Date
  /** Whether each night's trace is asked for (`include=trace` on the quote). */
  readonly trace: boolean
}

/** A change's rules after the plan: a paid stay keeps its currency (400), a booking's room too (`currency_mismatch`). */
const checkCurrency = (
  reservation: ChangedReservation,
  step: ChangeStep,
  plan: StayPlan
): Result.Result<void, InvalidParameters | CurrencyMismatch> => {
  if (step !== "hold" && plan.currency !== reservation.currency) {
    return Result.fail(new InvalidParameters({
      message: `rate_plan_id: a paid stay keeps its currency (${reservation.currency}); this plan is priced in ${plan.currency}`,
      param: "rate_plan_id"
    }))
  }
  if (reservation.inBooking && plan.currency !== reservation.currency) {
    return Result.fail(new CurrencyMismatch({
      message: `rate_plan_id: the rooms of a booking price in one currency (${reservation.currency}); this plan is priced in ${plan.currency}`,
      param: "rate_plan_id"
    }))
  }
  return Result.void
}

/** The field rules, then (when the stay changes) the new stay checked and priced as if a room were free. */
export const planChange = <P extends StayPlan, R extends StayRoomType>(input: {
  readonly reservation: ChangedReservation
  readonly start: ChangeStart
  readonly catalogue: StayCatalogue<P, R>
  readonly salesContext: SalesContext
  readonly trace: boolean
  /** The reservation's block when it is a pickup (read by the caller, under its lock for a PATCH). */
  readonly block?: PickupBlock | undefined
}) =>
  Effect.gen(function*() {
    const { catalogue, reservation, start } = input
    const { changed, step, target } = start
    const now = catalogue.now
    yield* Effect.fromResult(checkChange(step, reservation.terms, target, catalogue.today, changed))
    const base = { ...start, reservation, now, trace: input.trace }
    if (!needsVisibility(changed)) return { ...base, restay: Option.none() } satisfies PlannedChange<P, R>
    const kept = keptNights(reservation.terms, target, reservation.lines)
    const block = input.block !== undefined && keepsBlock(input.block, target) ? input.block : undefined
    const checked = yield* checkStay(catalogue, {
      ...target,
      party: { adults: target.adults, children: target.children, childAges: target.childAges },
      bedConfig: null,
      addOns: reservation.addOns
    }, {
      salesContext: input.salesContext,
      fields: Result.void,
      afterPlan: (plan) => checkCurrency(reservation, step, plan),
      addOnsKept: true,
      pickup: block === undefined ? undefined : { price: block.price },
      keptNights: kept,
      trace: input.trace
    })
    const restay: Restay<P, R> = { checked, kept, catalogue, blockId: block?.id ?? null }
    return { ...base, restay: Option.some(restay) } satisfies PlannedChange<P, R>
  })

/**
 * The terms the change would store: a promo code is kept only when the plan takes codes (as on a hold), so a
 * code sent for a plan without codes changes nothing.
 */
export const storedTarget = (planned: PlannedChange): StayTerms =>
  Option.match(planned.restay, {
    onNone: () => planned.target,
    onSome: (restay) => ({
      ...planned.target,
      promoCode: frozenPromoCode(restay.catalogue, restay.checked.plan, planned.target.promoCode)?.code ?? null
    })
  })
