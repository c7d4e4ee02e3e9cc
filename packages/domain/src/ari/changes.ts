// The events of an accepted call (section 8): one `ari.changed` per plan an item names and per plan derived from
// one of those (recursively), spanning the items naming that plan or a plan it derives from; and, per room type
// an inventory item names, the span of its items (a PUT's `inventory.changed` and `availability.changed`).
import type { IsoDate } from "../quotes/dates.js"
import type { AriItem } from "./items.js"

export interface Span {
  readonly id: string
  readonly start_date: IsoDate
  readonly end_date: IsoDate
}

const widen = (spans: Map<string, Span>, id: string, item: AriItem) => {
  const known = spans.get(id)
  spans.set(id, {
    id,
    start_date: known === undefined || item.start_date < known.start_date ? item.start_date : known.start_date,
    end_date: known === undefined || item.end_date > known.end_date ? item.end_date : known.end_date
  })
}

const byId = (spans: Map<string, Span>): ReadonlyArray<Span> =>
  [...spans.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

/**
 * The span of each plan the call changes, in id order. `chainOf(id)` is a live plan's id followed by the ids of
 * every plan it derives from, nearest first (`plans` lists the property's live plans).
 */
export const planSpans = (
  items: ReadonlyArray<AriItem>,
  plans: ReadonlyArray<string>,
  chainOf: (planId: string) => ReadonlyArray<string>
): ReadonlyArray<Span> => {
  const itemsByPlan = new Map<string, Array<AriItem>>()
  for (const item of items) {
    if (item.kind !== "rate") continue
    const list = itemsByPlan.get(item.rate_plan_id) ?? []
    list.push(item)
    itemsByPlan.set(item.rate_plan_id, list)
  }
  const spans = new Map<string, Span>()
  for (const plan of plans) {
    for (const id of chainOf(plan)) {
      for (const item of itemsByPlan.get(id) ?? []) widen(spans, plan, item)
    }
  }
  return byId(spans)
}

/** The span of each room type the call's inventory items name, in id order. */
export const roomTypeSpans = (items: ReadonlyArray<AriItem>): ReadonlyArray<Span> => {
  const spans = new Map<string, Span>()
  for (const item of items) if (item.kind === "inventory") widen(spans, item.room_type_id, item)
  return byId(spans)
}
