// A hold's rules on fields that need the resources they name: each add-on's service, the room type's bed
// configurations, and whether each service may be booked by guests with the modifier values sent. They run once
// every id is known to exist (the 404s come first) and before anything that needs a lock, so a hold refused
// here never queues on the room type.
import * as Result from "effect/Result"
import { PartyTooLarge } from "../errors/BusinessErrors.js"
import { ServiceNotFound } from "../errors/NotFoundErrors.js"
import { InvalidParameters } from "../errors/RequestErrors.js"
import { checkModifierValues, type ModifierSpec } from "./modifiers.js"

/** An add-on as a hold asks for it. */
export interface AddOnRequest {
  readonly serviceId: string
  readonly modifierValues: Readonly<Record<string, unknown>>
}

/** A service as an add-on books it. */
export interface BookableService {
  readonly code: string
  readonly guestBookable: boolean
  readonly modifiers: ReadonlyArray<ModifierSpec>
}

/** The fields of a hold these rules read. */
export interface DependentFields {
  readonly bedConfig: string | null
  readonly addOns: ReadonlyArray<AddOnRequest>
}

const addOnPath = (index: number) => `add_ons[${index}]`

/** Each add-on's service, in request order; the first unknown one (in request order) is 404. */
export const addOnServices = <S>(
  catalogue: { readonly servicesById: ReadonlyMap<string, S> },
  request: { readonly addOns: ReadonlyArray<{ readonly serviceId: string }> }
): Result.Result<ReadonlyArray<S>, ServiceNotFound> => {
  const services: Array<S> = []
  for (const addOn of request.addOns) {
    const service = catalogue.servicesById.get(addOn.serviceId)
    if (service === undefined) return Result.fail(new ServiceNotFound({ message: `No service ${addOn.serviceId}` }))
    services.push(service)
  }
  return Result.succeed(services)
}

/** A bed configuration, when one is asked for, must be one the room type offers (the message lists them). */
export const checkBedConfig = (
  bedConfig: string | null,
  offered: ReadonlyArray<string>
): Result.Result<void, InvalidParameters> => {
  if (bedConfig === null || offered.includes(bedConfig)) return Result.void
  const listed = offered.length === 0 ? "none" : offered.map((b) => `"${b}"`).join(", ")
  return Result.fail(new InvalidParameters({
    message: `bed_config: the room type offers ${listed}`,
    param: "bed_config"
  }))
}

/**
 * The modifier values each add-on keeps (see `checkModifierValues`), in request order, or the first problem:
 * add-on by add-on, a service guests cannot book before its values. `services[i]` is add-on i's service.
 */
export const checkAddOns = (
  addOns: ReadonlyArray<AddOnRequest>,
  services: ReadonlyArray<BookableService>
): Result.Result<ReadonlyArray<Readonly<Record<string, unknown>>>, InvalidParameters> => {
  const kept: Array<Readonly<Record<string, unknown>>> = []
  for (const [i, addOn] of addOns.entries()) {
    const service = services[i]
    if (!service.guestBookable) {
      return Result.fail(new InvalidParameters({
        message: `${addOnPath(i)}.service_id: the service ${service.code} cannot be booked by guests`,
        param: `${addOnPath(i)}.service_id`
      }))
    }
    const checked = checkModifierValues(service.modifiers, addOn.modifierValues, `${addOnPath(i)}.modifier_values`)
    if (Result.isFailure(checked)) return Result.fail(checked.failure)
    kept.push(checked.success)
  }
  return Result.succeed(kept)
}

/** The rules on fields that need the room type and the services, bed configuration first (400, the field's path). */
export const checkDependentFields = (
  request: DependentFields,
  bedConfigs: ReadonlyArray<string>,
  services: ReadonlyArray<BookableService>
): Result.Result<ReadonlyArray<Readonly<Record<string, unknown>>>, InvalidParameters> =>
  Result.flatMap(checkBedConfig(request.bedConfig, bedConfigs), () => checkAddOns(request.addOns, services))

/**
 * Whether a party of `partySize` fits a room type of `maxOccupancy`; 409 `party_too_large` otherwise. A hold asks
 * this after its live-hold caps (counted under their locks), so a capped key hears about its cap first.
 */
export const checkPartyFits = (partySize: number, maxOccupancy: number): Result.Result<void, PartyTooLarge> =>
  partySize <= maxOccupancy
    ? Result.void
    : Result.fail(new PartyTooLarge({
      message: `A party of ${partySize} exceeds the room type's maximum occupancy of ${maxOccupancy}`
    }))
