// One request for a stay, whoever asks for it: a hold, each room of a booking, a pickup from a block and the new
// stay of a change are the same room type, plan, dates, party, add-ons and promo code, checked by `checkStay` in
// one order and priced by one call (`offerFor`, the quote's own path). What differs between them is a parameter:
// the field rules of the dates (a change keeps a past arrival), the checks that follow the plan's 404 (a hold's
// guest and block, a change's currency), whether the add-ons are asked for (checked) or kept (a change), the
// nights a change keeps at their booked price, and a pickup's block price. `bookStay` then decides, with the
// rooms counted under the room type's lock, the quote the stay is booked at; `stayRecord` what its rows keep.
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import * as Option from "effect/Option"
import { policyFor } from "./cancellation/policy.js"
import { GuestNotFound, RatePlanNotFound, RoomTypeNotFound, type ServiceNotFound } from "../errors/NotFoundErrors.js"
import type { PartyTooLarge } from "../errors/BusinessErrors.js"
import type { InvalidParameters } from "../errors/RequestErrors.js"
import type { Amount } from "../money/Money.js"
import type { SalesContext } from "../platform/ApiKey.js"
import type { IsoDate } from "../quotes/dates.js"
import { partySize } from "../quotes/guests.js"
import type { BlockPrice, CancellationTier, Party, RoomType, Service } from "../quotes/model.js"
import { type Offer, type OfferPlan, type OfferSource, offerFor, withAvailability } from "../quotes/offer.js"
import type { Quote } from "../quotes/quote.js"
import type { PromoCodeState } from "../rates/visibility/promoCodes.js"
import { bookableQuote } from "./bookableQuote.js"
import { addOnServices, type BookableService, checkDependentFields, checkPartyFits } from "./holdChecks.js"
import { frozenPromoCode } from "./holdPromoCode.js"

export interface StayPlan extends OfferPlan {
  readonly id: string
}

export interface StayRoomType extends RoomType {
  readonly id: string
  readonly name: string
  readonly bedConfigs: ReadonlyArray<string>
}

export interface StayService extends BookableService {
  readonly model: Service
}

/** What a stay is checked and priced on: the property as loaded at one instant (a pricing snapshot is one). */
export interface StayCatalogue<P extends StayPlan = StayPlan, R extends StayRoomType = StayRoomType>
  extends OfferSource<R>
{
  readonly today: IsoDate
  readonly plansById: ReadonlyMap<string, P>
  readonly servicesById: ReadonlyMap<string, StayService>
}

/** An add-on of a stay: asked for (with the modifier values to check) or kept from the stay it changes. */
export interface StayAddOn {
  readonly serviceId: string
  readonly quantity: number
  readonly modifierValues: Readonly<Record<string, unknown>>
}

/** A request for a stay. */
export interface RequestedStay {
  readonly roomTypeId: string
  readonly ratePlanId: string
  readonly checkIn: IsoDate
  readonly checkOut: IsoDate
  readonly party: Party
  readonly promoCode: string | null
  readonly bedConfig: string | null
  readonly addOns: ReadonlyArray<StayAddOn>
}

/** What differs between the requests for a stay. */
export interface StayRules<P extends StayPlan, E> {
  readonly salesContext: SalesContext
  /** The field rules of the dates and party (400), first of all. */
  readonly fields: Result.Result<void, E>
  /** The checks that follow the room type's and the plan's 404s (a hold's guest and block, a change's currency). */
  readonly afterPlan: (plan: P) => Result.Result<void, E>
  /** A change's add-ons are kept as they are: their services must exist, their fields are not checked again. */
  readonly addOnsKept?: boolean
  /** A pickup's block price (its visibility rule is waived), or none. */
  readonly pickup?: { readonly price: BlockPrice | null } | undefined
  /** The nights a change keeps at their booked amount. */
  readonly keptNights?: ReadonlyMap<IsoDate, Amount> | undefined
  /** Whether the nights carry their trace (a change's quote may show it). */
  readonly trace?: boolean
}

/** A stay checked and priced as if a room were free, waiting for the checks that need locks. */
export interface CheckedStay<P extends StayPlan = StayPlan, R extends StayRoomType = StayRoomType> {
  readonly stay: RequestedStay
  readonly plan: P
  readonly roomType: R
  readonly modifierValues: ReadonlyArray<Readonly<Record<string, unknown>>>
  readonly partyFits: Result.Result<void, PartyTooLarge>
  /** None when the visibility rule hides the plan from this request. */
  readonly offer: Option.Option<Offer<P, R>>
}

/**
 * The one check of a stay, in its order: the field rules, the room type's then the plan's 404, what follows the
 * plan (`rules.afterPlan`), each add-on's service (404), the fields that need the room type and the services
 * (400, for add-ons asked for), then the offer priced as if a room were free. Whether the party fits is answered,
 * not failed: it is refused after the live-hold caps, which are checked under their locks.
 */
export const checkStay = <P extends StayPlan, R extends StayRoomType, E>(
  catalogue: StayCatalogue<P, R>,
  stay: RequestedStay,
  rules: StayRules<P, E>
): Effect.Effect<CheckedStay<P, R>, E | RoomTypeNotFound | RatePlanNotFound | ServiceNotFound | InvalidParameters> =>
  Effect.gen(function*() {
    yield* Effect.fromResult(rules.fields)
    const roomType = catalogue.roomTypesById.get(stay.roomTypeId)
    if (roomType === undefined) return yield* new RoomTypeNotFound({ message: `No room type ${stay.roomTypeId}` })
    const plan = catalogue.plansById.get(stay.ratePlanId)
    if (plan === undefined) return yield* new RatePlanNotFound({ message: `No rate plan ${stay.ratePlanId}` })
    yield* Effect.fromResult(rules.afterPlan(plan))
    const services = yield* Effect.fromResult(addOnServices(catalogue, stay))
    const modifierValues = rules.addOnsKept === true
      ? stay.addOns.map((addOn) => addOn.modifierValues)
      : yield* Effect.fromResult(checkDependentFields(stay, roomType.bedConfigs, services))
    const offer = offerFor({
      snapshot: catalogue,
      plan,
      roomTypeId: roomType.id,
      stay: { checkIn: stay.checkIn, checkOut: stay.checkOut, party: stay.party, promoCode: stay.promoCode },
      salesContext: rules.salesContext,
      available: 1,
      pickup: rules.pickup,
      pricing: { trace: rules.trace ?? false, keptNights: rules.keptNights },
      addOns: stay.addOns.map((addOn, i) => ({ service: services[i].model, quantity: addOn.quantity }))
    })
    const partyFits = checkPartyFits(partySize(stay.party), roomType.maxOccupancy)
    const checked: CheckedStay<P, R> = { stay, plan, roomType, modifierValues, partyFits, offer }
    return checked
  })

/** A hold's guest must be the property's (404 `guest_not_found`). */
export const checkGuestFound = (found: boolean, guestId: string): Result.Result<void, GuestNotFound> =>
  found ? Result.void : Result.fail(new GuestNotFound({ message: `No guest ${guestId}` }))

/**
 * The quote a checked stay is booked at with `available` rooms free on every night (counted under the room
 * type's lock): `party_too_large`, then a plan this request cannot book (404 `rate_plan_not_found`), then no room
 * free (409 `no_availability`), as `bookableQuote` decides from the offer `/rates` would show.
 */
export const bookStay = <P extends StayPlan, R extends StayRoomType>(checked: CheckedStay<P, R>, available: number) =>
  Effect.fromResult(Result.andThen(
    checked.partyFits,
    bookableQuote(Option.map(checked.offer, withAvailability(available)), checked.plan, checked.roomType, checked.stay)
  ))

/** What a stay's rows keep besides its terms: the booked quote, the promo code and policy frozen, the block. */
export interface StayRecord {
  readonly stay: RequestedStay
  readonly quote: Quote
  readonly promo: PromoCodeState | null
  /** The cancellation policy to freeze on the reservation; null keeps the one frozen (a change of dates). */
  readonly policy: ReadonlyArray<CancellationTier> | null
  readonly blockId: string | null
  /** Each night's overbooking as the stay was counted under (`held_overbooking`), in date order. */
  readonly heldOverbooking: ReadonlyArray<number>
}

/**
 * The record of a stay booked at `quote`: the code it redeems (only a plan that takes codes keeps one) and the
 * plan's policy, frozen unless `keepPolicy` (a change that keeps its plan keeps the policy it was booked under).
 */
export const stayRecord = (
  catalogue: StayCatalogue,
  checked: CheckedStay,
  quote: Quote,
  held: { readonly blockId: string | null; readonly heldOverbooking: ReadonlyArray<number>; readonly keepPolicy?: boolean }
): StayRecord => ({
  stay: checked.stay,
  quote,
  promo: frozenPromoCode(catalogue, checked.plan, checked.stay.promoCode),
  policy: held.keepPolicy === true ? null : policyFor(checked.plan.model, catalogue.property.pricing),
  blockId: held.blockId,
  heldOverbooking: held.heldOverbooking
})
