// The rules of a hold that need the pricing snapshot: each add-on's service, the fields that depend on the room
// type and the services, and the promo code a hold freezes.
import {
  Booking,
  Folio,
  InvalidParameters,
  NoAvailability,
  type Pricing,
  RatePlanNotFound,
  ServiceNotFound,
  Visibility
} from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { PricingSnapshot, SnapshotPlan, SnapshotRoomType, SnapshotService } from "../../quotes/PricingInputs.js"
import type { Offer } from "../../quotes/Quotes.js"
import type { HoldRequest } from "./requests.js"

/**
 * The promo code a hold freezes: the redeemable code sent for the nearest plan of the chain that requires
 * one (the booked plan first). A code sent for a plan that requires none is ignored and not
 * recorded, so it is not counted as a redemption either.
 */
export const frozenPromoCode = (
  snapshot: PricingSnapshot,
  plan: SnapshotPlan,
  given: string | null
): Visibility.PromoCodeState | null => {
  if (given === null || given === "") return null
  for (let p: Pricing.RatePlan | null | undefined = plan.model; p != null; p = p.derivation?.parent) {
    if (!p.requiresPromoCode) continue
    const code = Visibility.redeemableCode(snapshot.promoCodes, p.id, given, snapshot.today)
    if (code !== undefined) return code
  }
  return null
}

const withPath = (index: number) => `add_ons[${index}]`

/** Each add-on's service (404 for the first unknown one, in request order). */
export const servicesOf = (snapshot: PricingSnapshot, request: HoldRequest) =>
  Effect.forEach(request.addOns, (addOn) =>
    Option.match(Option.fromNullable(snapshot.servicesById.get(addOn.serviceId)), {
      onNone: () => Effect.fail(new ServiceNotFound({ message: `No service ${addOn.serviceId}` })),
      onSome: (service) => Effect.succeed(service)
    }))

/** The rules on fields that need the room type and the services (400 with the field's path). */
export const checkDependentFields = (
  request: HoldRequest,
  bedConfigs: ReadonlyArray<string>,
  services: ReadonlyArray<SnapshotService>
): Effect.Effect<ReadonlyArray<Readonly<Record<string, unknown>>>, InvalidParameters> =>
  Effect.gen(function*() {
    if (request.bedConfig !== null && !bedConfigs.includes(request.bedConfig)) {
      const offered = bedConfigs.length === 0 ? "none" : bedConfigs.map((b) => `"${b}"`).join(", ")
      return yield* new InvalidParameters({
        message: `bed_config: the room type offers ${offered}`,
        param: "bed_config"
      })
    }
    const kept: Array<Readonly<Record<string, unknown>>> = []
    for (const [i, addOn] of request.addOns.entries()) {
      const service = services[i]
      if (!service.guestBookable) {
        return yield* new InvalidParameters({
          message: `${withPath(i)}.service_id: the service ${service.code} cannot be booked by guests`,
          param: `${withPath(i)}.service_id`
        })
      }
      const checked = Booking.checkModifierValues(
        service.modifiers,
        addOn.modifierValues,
        `${withPath(i)}.modifier_values`
      )
      if (Either.isLeft(checked)) return yield* checked.left
      kept.push(checked.right)
    }
    return kept
  })

/**
 * The quote a hold books, decided from the offer (the quote's own path): no offer, or one hidden for a reason
 * other than being sold out, is 404 `rate_plan_not_found`; a sold-out or unpriceable one is 409
 * `no_availability`.
 */
export const bookableQuote = (
  offer: Option.Option<Offer>,
  plan: SnapshotPlan,
  roomType: SnapshotRoomType,
  request: HoldRequest
): Either.Either<Pricing.Quote, RatePlanNotFound | NoAvailability | InvalidParameters> => {
  if (Option.isNone(offer)) {
    return Either.left(new RatePlanNotFound({
      message: `Rate plan ${plan.id} is not offered for this room type, stay or sales context`
    }))
  }
  const hidden = offer.value.reasons.filter((reason) => reason !== "sold_out")
  if (hidden.length > 0) {
    return Either.left(new RatePlanNotFound({
      message: `Rate plan ${plan.id} cannot be booked for this request (${hidden.join(", ")})`
    }))
  }
  if (!offer.value.bookable || Option.isNone(offer.value.quote)) {
    return Either.left(new NoAvailability({
      message: `No ${roomType.name} is free on every night from ${request.checkIn} to ${request.checkOut}`
    }))
  }
  const quote = offer.value.quote.value
  return Either.map(Folio.checkHoldTotal(quote.total, quote.currency), () => quote)
}
