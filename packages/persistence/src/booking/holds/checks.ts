// The rules of a hold that need the pricing snapshot: each add-on's service, the fields that depend on the room
// type and the services, and the promo code a hold freezes.
import { Booking, InvalidParameters, type Pricing, ServiceNotFound, Visibility } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { PricingSnapshot, SnapshotPlan, SnapshotService } from "../../quotes/PricingInputs.js"
import type { HoldRequest } from "./requests.js"

/**
 * The promo code a hold freezes: the redeemable code sent for the nearest plan of the chain that requires
 * one (the booked plan first). A code sent for a plan that requires none is ignored (decisions 4) and not
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
