// What an accepted call writes on each plan's nights: its rate items applied in order, so per night and field
// the last item wins and a `null` in a later item removes what an earlier one set. One entry per plan and
// night the call touches, with only the fields some item carried (the others stay as stored).
import type { IsoDate } from "../quotes/dates.js"
import type { RatePatch } from "./items.js"
import type { CheckedItem, CheckedRateItem } from "./rules.js"

export interface NightPatch {
  readonly ratePlanId: string
  readonly night: IsoDate
  readonly patch: RatePatch
}

type MutablePatch = { -readonly [K in keyof RatePatch]: RatePatch[K] }

const patchOf = (item: CheckedRateItem): RatePatch => {
  const patch: MutablePatch = {}
  if (item.price !== undefined) patch.price = item.price
  if (item.min_stay !== undefined) patch.min_stay = item.min_stay
  if (item.max_stay !== undefined) patch.max_stay = item.max_stay
  if (item.closed_to_arrival !== undefined) patch.closed_to_arrival = item.closed_to_arrival
  if (item.closed_to_departure !== undefined) patch.closed_to_departure = item.closed_to_departure
  if (item.stop_sell !== undefined) patch.stop_sell = item.stop_sell
  return patch
}

/** The call's rate items as one patch per plan and night, in the order the nights were first touched. */
export const mergeRateItems = (items: ReadonlyArray<CheckedItem>): ReadonlyArray<NightPatch> => {
  const byKey = new Map<string, { ratePlanId: string; night: IsoDate; patch: MutablePatch }>()
  for (const item of items) {
    if (item.kind !== "rate") continue
    const patch = patchOf(item)
    for (const night of item.nights) {
      const key = `${item.rate_plan_id}/${night}`
      const known = byKey.get(key)
      if (known === undefined) byKey.set(key, { ratePlanId: item.rate_plan_id, night, patch: { ...patch } })
      else Object.assign(known.patch, patch)
    }
  }
  return [...byKey.values()]
}
