import * as SqlClient from "effect/sql/SqlClient"
import { Ari, Inventory as Rules, type InvalidParameters, Pricing, RatePlanNotFound, RoomTypeNotFound } from "@hotel/domain"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { withSpan } from "../database/Span.js"
import { Inventory } from "../inventory/Inventory.js"
import { keyPropertyExists } from "../platform/KeyProperty.js"
import { PricingInputs } from "../quotes/PricingInputs.js"

// `GET /ari`: every live plan's calendar over a range, from the pricing snapshot of the range's nights and one
// count of the free rooms: two statements whatever the number of plans and nights, and priced by the engine that
// prices `/rates` and holds (`Ari.calendarEntry`).

export class AriCalendar extends Context.Service<AriCalendar>()("@hotel/persistence/ari/AriCalendar", {
  make: Effect.gen(function*() {
    const inputs = yield* PricingInputs
    const inventory = yield* Inventory

    const read = (
      propertyId: string,
      query: Ari.AriReadParams
    ): Effect.Effect<ReadonlyArray<Ari.CalendarEntry>, InvalidParameters | RatePlanNotFound | RoomTypeNotFound> =>
      Effect.gen(function*() {
        const nights = yield* Effect.fromResult(Rules.inventoryRange(query.start_date, query.end_date))
        const last = Pricing.addDays(query.end_date, -1)
        const now = new Date(yield* Clock.currentTimeMillis)
        const snapshot = yield* inputs.load(propertyId, now, { from: query.start_date, through: last }).pipe(
          Effect.flatMap(keyPropertyExists(propertyId))
        )
        const { rate_plan_id, room_type_id } = query
        if (room_type_id !== undefined && !snapshot.roomTypesById.has(room_type_id)) {
          return yield* new RoomTypeNotFound({ message: `No room type ${room_type_id}` })
        }
        if (rate_plan_id !== undefined && !snapshot.plansById.has(rate_plan_id)) {
          return yield* new RatePlanNotFound({ message: `No rate plan ${rate_plan_id}` })
        }
        const plans = snapshot.plans
          .filter((plan) => (rate_plan_id === undefined || plan.id === rate_plan_id) &&
            (room_type_id === undefined || plan.roomTypeId === room_type_id))
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        if (plans.length === 0) return []
        const stock = yield* inventory.calendar(propertyId, {
          startDate: query.start_date,
          endDate: last,
          roomTypeId: rate_plan_id !== undefined ? plans[0].roomTypeId : room_type_id ?? null,
          now
        })
        const free = new Map(stock.map((entry) => [entry.roomTypeId, new Map(entry.nights.map((n) => [n.date, n.available]))]))
        const memo = Pricing.makePricingMemo()
        return plans.flatMap((plan) => {
          const roomType = snapshot.roomTypesById.get(plan.roomTypeId)
          if (roomType === undefined) return []
          const byDate = free.get(plan.roomTypeId)
          return [Ari.calendarEntry({
            plan,
            roomType,
            nights,
            ageBrackets: snapshot.property.pricing.ageBrackets,
            available: (date) => byDate?.get(date) ?? 0,
            memo
          })]
        })
      }).pipe(withSpan("AriCalendar.read"))

    return { read } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([PricingInputs.layer, Inventory.layer]))
}
