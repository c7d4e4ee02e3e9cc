// A block's status: what a read says, what confirm, release and cancel may do, and whether a hold may pick up
// from it. Pure decisions on the block as stored and counted.
import * as Result from "effect/Result"
import { BlockInUse, BlockNotDefinite, InvalidStatusTransition } from "../errors/BusinessErrors.js"
import { BlockNotFound } from "../errors/NotFoundErrors.js"
import type { InvalidParameters } from "../errors/RequestErrors.js"
import type { BlockPrice } from "../quotes/model.js"
import { fail } from "../rates/checks.js"
import type { NightState } from "./nights.js"
import type { BlockStatus } from "./requests.js"

/**
 * The status a read shows: a tentative or definite block whose every night has passed its release instant
 * reads `released`, whether or not the release worker has written it down.
 */
export const statusOf = (stored: BlockStatus, nights: ReadonlyArray<NightState>): BlockStatus =>
  (stored === "tentative" || stored === "definite") && nights.length > 0 && nights.every((night) => night.released)
    ? "released"
    : stored

const refused = (action: string, status: BlockStatus) =>
  Result.fail(new InvalidStatusTransition({ message: `A ${status} block cannot be ${action}` }))

/** `POST /blocks/{id}/confirm`: tentative → definite. */
export const confirm = (status: BlockStatus): Result.Result<"definite", InvalidStatusTransition> =>
  status === "tentative" ? Result.succeed("definite") : refused("confirmed", status)

/** `POST /blocks/{id}/release`: definite → released (a tentative block holds nothing to release). */
export const release = (status: BlockStatus): Result.Result<"released", InvalidStatusTransition> =>
  status === "definite" ? Result.succeed("released") : refused("released", status)

/** `POST /blocks/{id}/cancel`: any block but a cancelled one, when no pickup of it is live. */
export const cancel = (
  status: BlockStatus,
  livePickups: number
): Result.Result<"cancelled", InvalidStatusTransition | BlockInUse> => {
  if (status === "cancelled") return refused("cancelled", status)
  if (livePickups > 0) {
    return Result.fail(new BlockInUse({ message: `The block has ${livePickups} live pickups; cancel them first` }))
  }
  return Result.succeed("cancelled")
}

/**
 * Whether a hold may pick up from the block: the room type and the plan must be the block's (400 on the field),
 * and the block definite or released (409 `block_not_definite`), as a read shows its status.
 */
export const checkPickup = (
  block: { readonly status: BlockStatus; readonly roomTypeId: string; readonly ratePlanId: string },
  request: { readonly roomTypeId: string; readonly ratePlanId: string }
): Result.Result<void, InvalidParameters | BlockNotDefinite> => {
  if (request.roomTypeId !== block.roomTypeId) return fail("room_type_id", "must be the block's room type")
  if (request.ratePlanId !== block.ratePlanId) return fail("rate_plan_id", "must be the block's rate plan")
  if (block.status !== "definite" && block.status !== "released") {
    return Result.fail(new BlockNotDefinite({ message: `The block is ${block.status}; only a definite or released block can be picked up` }))
  }
  return Result.void
}

/**
 * Whether a change of a pickup keeps its block: only while its room type and plan stay the block's (the block
 * sells one room type on one plan). Dropped, the reservation is an ordinary one from then on: its nights are
 * general inventory, priced by the plan, under the plan's visibility rule.
 */
export const keepsBlock = (
  block: { readonly roomTypeId: string; readonly ratePlanId: string },
  target: { readonly roomTypeId: string; readonly ratePlanId: string }
): boolean => block.roomTypeId === target.roomTypeId && block.ratePlanId === target.ratePlanId

/** A block as a pickup (and a change of one) decides on it: its status as read, its type, plan and price. */
export interface PickupBlock {
  readonly id: string
  readonly status: BlockStatus
  readonly roomTypeId: string
  readonly ratePlanId: string
  readonly price: BlockPrice | null
}

/** A hold's pickup: the block it names must exist (404 `block_not_found`), then `checkPickup`. */
export const checkPickupOf = (
  blockId: string,
  block: PickupBlock | undefined,
  request: { readonly roomTypeId: string; readonly ratePlanId: string }
): Result.Result<void, BlockNotFound | InvalidParameters | BlockNotDefinite> =>
  block === undefined ? Result.fail(new BlockNotFound({ message: `No block ${blockId}` })) : checkPickup(block, request)
