// The checks of `POST /ari` that need the plans and room types it names, after field validation: first the
// references (404, the message naming the first item whose plan or room type is missing), then, first item
// first, the rules: a `price` (even `null`) on a derived plan, decimals beyond the plan currency's, and an
// inventory item's fields against the type's rooms, by the PUT's own rule (`plannedControls`).
import * as Option from "effect/Option"
import * as Result from "effect/Result"
import { RatePlanNotFound, RoomTypeNotFound } from "../errors/NotFoundErrors.js"
import { plannedControls } from "../inventory/controls.js"
import type { Amount } from "../money/Money.js"
import * as Money from "../money/Money.js"
import { type Check, fail } from "../rates/checks.js"
import { inItem } from "./fieldChecks.js"
import type { AriItem, InventoryItem, RateItem } from "./items.js"

/** What the rules read of a named plan and room type. */
export interface AriTargets {
  readonly plans: ReadonlyMap<string, { readonly derived: boolean; readonly currency: string }>
  readonly roomTypes: ReadonlyMap<string, { readonly rooms: number }>
}

/** A rate item whose price is parsed in its plan's currency. */
export interface CheckedRateItem extends Omit<RateItem, "price"> {
  readonly price?: Amount | null | undefined
}

export type CheckedItem = CheckedRateItem | InventoryItem

/** The 404 of the first item naming a plan or a room type that is not the property's (a deleted plan is not). */
export const missingTarget = (
  items: ReadonlyArray<AriItem>,
  targets: AriTargets
): Option.Option<RatePlanNotFound | RoomTypeNotFound> => {
  for (const item of items) {
    if (item.kind === "rate" && !targets.plans.has(item.rate_plan_id)) {
      return Option.some(new RatePlanNotFound({ message: `items[${item.index}]: no rate plan ${item.rate_plan_id}` }))
    }
    if (item.kind === "inventory" && !targets.roomTypes.has(item.room_type_id)) {
      return Option.some(new RoomTypeNotFound({ message: `items[${item.index}]: no room type ${item.room_type_id}` }))
    }
  }
  return Option.none()
}

const rateRules = (item: RateItem, plan: { readonly derived: boolean; readonly currency: string }): Check<CheckedRateItem> => {
  const { price, ...rest } = item
  if (price === undefined) return Result.succeed(rest)
  const param = `items[${item.index}].price`
  if (plan.derived) return fail(param, "a derived plan follows its parent's price; set the parent's")
  if (price === null) return Result.succeed({ ...rest, price: null })
  const parsed = Money.parse(price, plan.currency)
  return Result.isFailure(parsed)
    ? fail(param, Money.problemMessage(parsed.failure, plan.currency))
    : Result.succeed({ ...rest, price: parsed.success })
}

const inventoryRules = (item: InventoryItem, rooms: number): Check<InventoryItem> =>
  Result.match(plannedControls(item, rooms), {
    onFailure: (error) => Result.fail(inItem(item.index, error)),
    onSuccess: () => Result.succeed(item)
  })

/** The rules of every item, first item first, on targets that `missingTarget` found. */
export const checkItems = (items: ReadonlyArray<AriItem>, targets: AriTargets): Check<ReadonlyArray<CheckedItem>> =>
  Result.gen(function*() {
    const checked: Array<CheckedItem> = []
    for (const item of items) {
      if (item.kind === "rate") {
        const plan = targets.plans.get(item.rate_plan_id)
        if (plan === undefined) return yield* fail(`items[${item.index}].rate_plan_id`, "names no rate plan")
        checked.push(yield* rateRules(item, plan))
      } else {
        const type = targets.roomTypes.get(item.room_type_id)
        if (type === undefined) return yield* fail(`items[${item.index}].room_type_id`, "names no room type")
        checked.push(yield* inventoryRules(item, type.rooms))
      }
    }
    return checked
  })
