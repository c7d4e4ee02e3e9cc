// Field validation of a `POST /ari` body (400 `invalid_parameters`): every item in order, the first bad one
// named by its path as sent (`items[3].days[1]`, `items[0].price`); within an item, each field on its own
// before the rules between them (the range, the property's today and horizon, `max_stay` against `min_stay`,
// an item that sets nothing). References (404) and the rules that need the plan or the room type come after,
// in ./rules.ts.
import * as Result from "effect/Result"
import { onWeekdays } from "../inventory/controls.js"
import { maxControl, type Weekday } from "../inventory/requests.js"
import { addDays, type IsoDate } from "../quotes/dates.js"
import { bounds, type Check, fail, nightRange } from "../rates/checks.js"
import {
  boolField,
  dateField,
  daysField,
  intField,
  isRecord,
  inItem,
  optionalField,
  priceField,
  uuidField
} from "./fieldChecks.js"
import {
  type AriItem,
  horizonDays,
  type InventoryItem,
  inventoryFields,
  maxCallNights,
  maxItemNights,
  maxItems,
  type RateItem,
  rateFields
} from "./items.js"

type Fields = Readonly<Record<string, unknown>>

const sent = (item: Fields, key: string) => key in item && item[key] !== undefined

/** The first field of the other kind an item carries (`sell_limit` on a rate item): it names that field. */
const foreignField = (item: Fields, p: string, foreign: ReadonlyArray<string>, kind: string): Check<void> => {
  const found = foreign.find((key) => sent(item, key))
  return found === undefined ? Result.void : fail(`${p}.${found}`, `is not a field of ${kind}`)
}

/** The range's own fields: the dates and `days`. */
const rangeFields = (item: Fields, p: string) =>
  Result.gen(function*() {
    const start_date = yield* dateField(`${p}.start_date`, item.start_date)
    const end_date = yield* dateField(`${p}.end_date`, item.end_date)
    const days = yield* optionalField(item, "days", (v) => daysField(`${p}.days`, v))
    if (days === null) return yield* fail(`${p}.days`, "must be an array of weekdays such as [\"fri\", \"sat\"]")
    return { start_date, end_date, days }
  })

/** The rules of a range: end after start, at most 366 nights, from today to today + 729; its nights under `days`. */
const rangeRules = (
  range: { readonly start_date: IsoDate; readonly end_date: IsoDate; readonly days: ReadonlyArray<Weekday> | undefined },
  index: number,
  today: IsoDate
): Check<ReadonlyArray<IsoDate>> =>
  Result.gen(function*() {
    const p = `items[${index}]`
    const all = yield* Result.mapError(
      nightRange(range.start_date, range.end_date, maxItemNights, `an item covers at most ${maxItemNights} nights`),
      (error) => inItem(index, error)
    )
    if (range.start_date < today) return yield* fail(`${p}.start_date`, `must not be before the property's today (${today})`)
    const horizon = addDays(today, horizonDays)
    if (range.end_date > horizon) return yield* fail(`${p}.end_date`, `must be at most ${horizon} (today + ${horizonDays} days)`)
    return onWeekdays(all, range.days)
  })

const rateItem = (item: Fields, index: number, today: IsoDate): Check<RateItem> =>
  Result.gen(function*() {
    const p = `items[${index}]`
    const rate_plan_id = yield* uuidField(`${p}.rate_plan_id`, item.rate_plan_id)
    yield* foreignField(item, p, inventoryFields, "a rate item")
    const range = yield* rangeFields(item, p)
    const price = yield* optionalField(item, "price", (v) => priceField(`${p}.price`, v))
    const min_stay = yield* optionalField(item, "min_stay", (v) => intField(`${p}.min_stay`, v, 1, 30))
    const max_stay = yield* optionalField(item, "max_stay", (v) => intField(`${p}.max_stay`, v, 1, 30))
    const closed_to_arrival = yield* optionalField(item, "closed_to_arrival", (v) => boolField(`${p}.closed_to_arrival`, v))
    const closed_to_departure = yield* optionalField(item, "closed_to_departure", (v) => boolField(`${p}.closed_to_departure`, v))
    const stop_sell = yield* optionalField(item, "stop_sell", (v) => boolField(`${p}.stop_sell`, v))
    const nights = yield* rangeRules(range, index, today)
    yield* bounds("min_stay", min_stay, `${p}.max_stay`, max_stay)
    if (!rateFields.some((key) => sent(item, key))) return yield* fail(p, `sets no field: send one of ${rateFields.join(", ")}`)
    const fields = { price, min_stay, max_stay, closed_to_arrival, closed_to_departure, stop_sell }
    return { kind: "rate" as const, index, rate_plan_id, ...range, nights, ...fields }
  })

const inventoryItem = (item: Fields, index: number, today: IsoDate): Check<InventoryItem> =>
  Result.gen(function*() {
    const p = `items[${index}]`
    const room_type_id = yield* uuidField(`${p}.room_type_id`, item.room_type_id)
    yield* foreignField(item, p, rateFields, "an inventory item")
    const range = yield* rangeFields(item, p)
    const sell_limit = yield* optionalField(item, "sell_limit", (v) => intField(`${p}.sell_limit`, v, 0, maxControl))
    const overbooking = yield* optionalField(item, "overbooking", (v) => intField(`${p}.overbooking`, v, 0, maxControl))
    const nights = yield* rangeRules(range, index, today)
    if (!inventoryFields.some((key) => sent(item, key))) {
      return yield* fail(p, `sets no field: send ${inventoryFields.join(" or ")}`)
    }
    // As on the PUT: no overbooking is 0.
    const fields = { sell_limit, overbooking: overbooking === null ? 0 : overbooking }
    return { kind: "inventory" as const, index, room_type_id, ...range, nights, ...fields }
  })

const validateItem = (raw: unknown, index: number, today: IsoDate): Check<AriItem> => {
  const p = `items[${index}]`
  if (!isRecord(raw)) return fail(p, "must be an object")
  const forPlan = sent(raw, "rate_plan_id")
  const forType = sent(raw, "room_type_id")
  if (forPlan && forType) return fail(`${p}.room_type_id`, "an item carries rate_plan_id or room_type_id, not both")
  if (forType) return inventoryItem(raw, index, today)
  if (forPlan) return rateItem(raw, index, today)
  return fail(`${p}.rate_plan_id`, "an item carries rate_plan_id (a rate item) or room_type_id (an inventory item)")
}

/** The items of a `POST /ari` body, valid on their own, at the property's `today`. */
export const validateItems = (items: unknown, today: IsoDate): Check<ReadonlyArray<AriItem>> =>
  Result.gen(function*() {
    if (!Array.isArray(items)) return yield* fail("items", "must be an array of items")
    if (items.length < 1 || items.length > maxItems) return yield* fail("items", `must hold 1 to ${maxItems} items`)
    const valid: Array<AriItem> = []
    let nights = 0
    for (const [index, raw] of items.entries()) {
      const item = yield* validateItem(raw, index, today)
      nights += item.nights.length
      valid.push(item)
    }
    if (nights > maxCallNights) return yield* fail("items", `a call sets at most ${maxCallNights} nights (${nights} sent)`)
    return valid
  })

/** Whether a body's `items` carries an inventory item (`room_type_id`): the call then needs `inventory:write`. */
export const carriesInventory = (items: unknown): boolean =>
  Array.isArray(items) && items.some((item) => isRecord(item) && sent(item, "room_type_id"))
