// The rules of inventory writes that need more than one field or the room type: the range, the weekdays, the
// limits against the type's rooms. Pure: the services read the rooms and write what these decide.
import * as Result from "effect/Result"
import { type IsoDate, weekdayOf } from "../quotes/dates.js"
import { type Check, fail, nightRange } from "../rates/checks.js"
import { maxInventoryNights, type Weekday } from "./requests.js"

/** The nights of `[start, end)`; 400 on `end_date` for an empty or too long range. */
export const inventoryRange = (start: IsoDate, end: IsoDate, most = maxInventoryNights): Check<ReadonlyArray<IsoDate>> =>
  nightRange(start, end, most, `the range may cover at most ${most} nights`)

/**
 * An inventory PUT: the nights it sets (the range, only the weekdays of `days` when sent) and its fields, each
 * at most the type's rooms; it must carry `sell_limit` or `overbooking`.
 */
export const plannedControls = (
  input: {
    readonly start_date: IsoDate
    readonly end_date: IsoDate
    readonly days?: ReadonlyArray<Weekday> | undefined
    readonly sell_limit?: number | null | undefined
    readonly overbooking?: number | undefined
  },
  rooms: number
): Check<ReadonlyArray<IsoDate>> =>
  Result.gen(function*() {
    const range = yield* inventoryRange(input.start_date, input.end_date)
    if (input.sell_limit != null && input.sell_limit > rooms) {
      return yield* fail("sell_limit", `must be at most the room type's ${rooms} rooms`)
    }
    if (input.overbooking !== undefined && input.overbooking > rooms) {
      return yield* fail("overbooking", `must be at most the room type's ${rooms} rooms`)
    }
    if (input.sell_limit === undefined && input.overbooking === undefined) {
      return yield* fail("sell_limit", "send sell_limit, overbooking or both")
    }
    return onWeekdays(range, input.days)
  })

/** The nights of a range that fall on `days` (all of them when `days` is not sent). */
export const onWeekdays = (nights: ReadonlyArray<IsoDate>, days: ReadonlyArray<Weekday> | undefined): ReadonlyArray<IsoDate> => {
  if (days === undefined) return nights
  const wanted = new Set(days)
  return nights.filter((date) => wanted.has(weekdayOf(date)))
}
