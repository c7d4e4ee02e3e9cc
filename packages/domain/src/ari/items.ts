// What `POST /ari` carries once its fields are valid: rate items (a plan's per-night overrides) and inventory
// items (a room type's sell limit and overbooking, as `PUT /room-types/{id}/inventory` sets them). A field left
// out is `undefined` (untouched); `null` removes the night's override of that field.
import type { Amount } from "../money/Money.js"
import type { IsoDate, Weekday } from "../quotes/dates.js"

/** At most this many items in one call. */
export const maxItems = 1000
/** At most this many nights in one call (the sum of the nights each item sets). */
export const maxCallNights = 100_000
/** At most this many nights in one item's range, and in one `GET /ari`. */
export const maxItemNights = 366
/** An item's `end_date` is at most the property's today plus this many days (nights up to today + 729). */
export const horizonDays = 730

/** The per-night override fields of a rate item, in the order they are validated. */
export const rateFields = ["price", "min_stay", "max_stay", "closed_to_arrival", "closed_to_departure", "stop_sell"] as const
export type RateField = typeof rateFields[number]

/** The fields of an inventory item, in the order they are validated. */
export const inventoryFields = ["sell_limit", "overbooking"] as const

interface Range {
  /** The item's position in `items`, for the `param` and `message` of what refuses it. */
  readonly index: number
  readonly start_date: IsoDate
  readonly end_date: IsoDate
  readonly days?: ReadonlyArray<Weekday> | undefined
  /** The nights the item sets: its range, only the weekdays of `days` when sent. */
  readonly nights: ReadonlyArray<IsoDate>
}

export interface RateItem extends Range, Omit<RatePatch, "price"> {
  readonly kind: "rate"
  readonly rate_plan_id: string
  /** As sent: its decimals are checked against the plan's currency once the plan is known. */
  readonly price?: string | null | undefined
}

export interface InventoryItem extends Range {
  readonly kind: "inventory"
  readonly room_type_id: string
  readonly sell_limit?: number | null | undefined
  /** `null` is 0, as on the PUT. */
  readonly overbooking?: number | undefined
}

export type AriItem = RateItem | InventoryItem

/** A rate item's fields with its price parsed in the plan's currency: what one night is set to. */
export interface RatePatch {
  readonly price?: Amount | null | undefined
  readonly min_stay?: number | null | undefined
  readonly max_stay?: number | null | undefined
  readonly closed_to_arrival?: boolean | null | undefined
  readonly closed_to_departure?: boolean | null | undefined
  readonly stop_sell?: boolean | null | undefined
}
