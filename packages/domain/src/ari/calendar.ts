// `GET /ari`: each plan's nights as a channel reads them. A night's `price` is its room amount in a one-night
// `/rates` quote for the room type's base occupancy (the same `priceNightIn` a quote and a hold run, derivation
// included, before taxes); its restrictions are what a stay arriving that night must meet over the plan and every
// plan it derives from (the night rules of `nightRulesFor`, with the plans' `min_los`/`max_los`); `available` is
// `/availability`'s.
import * as Schema from "effect/Schema"
import { IsoDate as IsoDateParam, Uuid } from "../common/Schemas.js"
import * as Money from "../money/Money.js"
import type { IsoDate } from "../quotes/dates.js"
import { stayNightOf } from "../quotes/dates.js"
import { allocateGuests } from "../quotes/guests.js"
import type { PricingMemo } from "../quotes/memo.js"
import type { AgeBracket, RatePlan, RoomType } from "../quotes/model.js"
import { nightContext, priceNightIn } from "../quotes/nightly.js"
import { nightRulesFor, planChain } from "../quotes/nightRules.js"

/** `GET /ari?start_date&end_date[&rate_plan_id][&room_type_id]` (`end_date` exclusive). */
export const AriReadParams = Schema.Struct({
  start_date: IsoDateParam,
  end_date: IsoDateParam,
  rate_plan_id: Schema.optionalKey(Uuid),
  room_type_id: Schema.optionalKey(Uuid)
})
export type AriReadParams = typeof AriReadParams.Type

export interface CalendarNight {
  readonly date: IsoDate
  readonly price: string
  readonly min_stay: number | null
  readonly max_stay: number | null
  readonly closed_to_arrival: boolean
  readonly closed_to_departure: boolean
  readonly stop_sell: boolean
  readonly available: number
}

export interface CalendarEntry {
  readonly rate_plan_id: string
  readonly room_type_id: string
  readonly currency: string
  readonly nights: ReadonlyArray<CalendarNight>
}

const bound = (values: ReadonlyArray<number | null | undefined>, pick: (a: number, b: number) => number) =>
  values.reduce<number | null>((acc, v) => (v == null ? acc : acc === null ? v : pick(acc, v)), null)

/** The restrictions on a stay arriving on `date`, over the plan's chain. */
const restrictionsOn = (chain: ReadonlyArray<RatePlan>, date: IsoDate) => {
  const rules = chain.map((plan) => ({ plan, night: nightRulesFor(plan, date) }))
  return {
    min_stay: bound(rules.flatMap(({ night, plan }) => [night.minStay, plan.minLos]), Math.max),
    max_stay: bound(rules.flatMap(({ night, plan }) => [night.maxStay, plan.maxLos]), Math.min),
    closed_to_arrival: rules.some(({ night }) => night.closedToArrival),
    closed_to_departure: rules.some(({ night }) => night.closedToDeparture),
    stop_sell: rules.some(({ night }) => night.stopSell)
  }
}

/** One plan's calendar over `nights`; `available(date)` is the free rooms of its room type that night. */
export const calendarEntry = (input: {
  readonly plan: { readonly id: string; readonly roomTypeId: string; readonly currency: string; readonly model: RatePlan }
  readonly roomType: RoomType
  readonly nights: ReadonlyArray<IsoDate>
  readonly ageBrackets: ReadonlyArray<AgeBracket>
  readonly available: (date: IsoDate) => number
  readonly memo: PricingMemo
}): CalendarEntry => {
  const { plan, roomType } = input
  const guests = allocateGuests({ adults: roomType.baseOccupancy }, roomType)
  const context = nightContext(guests, input.ageBrackets, { trace: false, memo: input.memo })
  const chain = planChain(plan.model)
  return {
    rate_plan_id: plan.id,
    room_type_id: plan.roomTypeId,
    currency: plan.currency,
    nights: input.nights.map((date) => ({
      date,
      price: Money.format(priceNightIn(plan.model, stayNightOf(date), context).amount, plan.currency),
      ...restrictionsOn(chain, date),
      available: input.available(date)
    }))
  }
}
