// The wire shapes of channel ARI. The body of `POST /ari` is decoded by the framework only as far as `items`
// being an array: whether an item needs `inventory:write` is read from the body before its fields are judged,
// and the fields are judged item by item by the domain (`Ari.validateItems`), so each item is described here
// for the document only.
import * as Schema from "effect/Schema"
import { DateOnly, Id, Money } from "../common/Common.js"

const range = {
  start_date: { type: "string", format: "date", description: "The first night" },
  end_date: { type: "string", format: "date", description: "Exclusive: the night after the last one" },
  days: {
    type: "array",
    minItems: 1,
    maxItems: 7,
    uniqueItems: true,
    items: { type: "string", enum: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] },
    description: "Only these weekdays of the range"
  }
}

const nullable = (schema: Record<string, unknown>) => ({ oneOf: [schema, { type: "null" }] })

/** A rate item or an inventory item, as JSON Schema (`null` removes a night's override; left out: untouched). */
const itemJsonSchema = {
  oneOf: [
    {
      title: "Rate item",
      type: "object",
      required: ["rate_plan_id", "start_date", "end_date"],
      properties: {
        rate_plan_id: { type: "string", format: "uuid" },
        ...range,
        price: nullable({ type: "string", pattern: "^\\d+(\\.\\d+)?$", description: "At the room type's base occupancy; not on a derived plan" }),
        min_stay: nullable({ type: "integer", minimum: 1, maximum: 30 }),
        max_stay: nullable({ type: "integer", minimum: 1, maximum: 30 }),
        closed_to_arrival: nullable({ type: "boolean" }),
        closed_to_departure: nullable({ type: "boolean" }),
        stop_sell: nullable({ type: "boolean" })
      }
    },
    {
      title: "Inventory item",
      type: "object",
      required: ["room_type_id", "start_date", "end_date"],
      properties: {
        room_type_id: { type: "string", format: "uuid" },
        ...range,
        sell_limit: nullable({ type: "integer", minimum: 0 }),
        overbooking: nullable({ type: "integer", minimum: 0, description: "null is 0" })
      }
    }
  ]
}

/** One item, judged by the domain; described as the two kinds it may be. */
const AriItem = Schema.Unknown.check(Schema.makeFilter(() => true, { toJsonSchema: () => itemJsonSchema }))

export const AriWrite = Schema.Struct({
  items: Schema.Array(AriItem).annotate({ description: "1 to 1000 items, at most 100,000 nights in all, applied in order" })
}).annotate({ identifier: "AriWrite" })

export const AriWritten = Schema.Struct({
  items: Schema.Int.annotate({ description: "The number of items applied" }),
  nights_updated: Schema.Int.annotate({ description: "The sum of the nights each item set" })
}).annotate({ identifier: "AriWritten" })

export const AriNight = Schema.Struct({
  date: DateOnly,
  /** The room amount of a one-night quote for the base occupancy, before taxes. */
  price: Money,
  min_stay: Schema.NullOr(Schema.Int),
  max_stay: Schema.NullOr(Schema.Int),
  closed_to_arrival: Schema.Boolean,
  closed_to_departure: Schema.Boolean,
  stop_sell: Schema.Boolean,
  /** `/availability`'s `available` for the plan's room type. */
  available: Schema.Int
}).annotate({ identifier: "AriNight" })

export const AriPlanCalendar = Schema.Struct({
  rate_plan_id: Id,
  room_type_id: Id,
  currency: Schema.String,
  nights: Schema.Array(AriNight)
}).annotate({ identifier: "AriPlanCalendar" })

/** `ari.changed`: the nights of a plan whose price or restrictions a call set (`end_date` exclusive). */
export const AriChanged = Schema.Struct({
  rate_plan_id: Id,
  start_date: DateOnly,
  end_date: DateOnly
}).annotate({ identifier: "AriChanged" })
