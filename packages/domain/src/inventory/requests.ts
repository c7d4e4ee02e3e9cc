// Request bodies and queries of inventory controls: periods out of order, sell limits and overbooking.
import * as Schema from "effect/Schema"
import { IsoDate, Uuid } from "../common/Schemas.js"
import { DateField, int, literal, list, nullable, optional, text } from "../rates/fields.js"

/** The longest range an out-of-order period or an inventory PUT covers, in nights. */
export const maxInventoryNights = 366
/** The largest `sell_limit` or `overbooking` a write takes on its own (the type's rooms bound it further). */
export const maxControl = 10000

export const Weekday = literal("mon", "tue", "wed", "thu", "fri", "sat", "sun")
export type Weekday = typeof Weekday.Type

/** `POST /rooms/{id}/out-of-order`. */
export const OutOfOrderCreate = Schema.Struct({
  start_date: DateField,
  end_date: DateField,
  reason: nullable(text(0, 500))
}).annotate({ identifier: "OutOfOrderCreate" })
export type OutOfOrderCreate = typeof OutOfOrderCreate.Type

/** `GET /out-of-order?start_date&end_date[&room_type_id]` (`end_date` exclusive). */
export const OutOfOrderListParams = Schema.Struct({
  start_date: IsoDate,
  end_date: IsoDate,
  room_type_id: Schema.optionalKey(Uuid)
})

/** `PUT /room-types/{id}/inventory`: the fields it carries, on the nights of the range (and `days`). */
export const InventoryPut = Schema.Struct({
  start_date: DateField,
  end_date: DateField,
  days: optional(list(Weekday, 7)),
  sell_limit: nullable(int(0, maxControl)),
  overbooking: optional(int(0, maxControl))
}).annotate({ identifier: "InventoryPut" })
export type InventoryPut = typeof InventoryPut.Type

/** `GET /room-types/{id}/inventory?start_date&end_date` (`end_date` exclusive). */
export const InventoryRangeParams = Schema.Struct({
  start_date: IsoDate,
  end_date: IsoDate
})
