// A block's negotiated price: a decimal string in its plan's currency, and the nights it applies to.
import * as Money from "../money/Money.js"
import type { IsoDate } from "../quotes/dates.js"
import type { BlockPrice } from "../quotes/model.js"
import { type Check, moneyOrNull } from "../rates/checks.js"

/** `price` in the plan's currency (its minor units, not negative), as stored; null clears it. */
export const checkPrice = (price: string | null, currency: string): Check<string | null> =>
  moneyOrNull("price", price, currency)

/**
 * What a pickup of the block prices with: its price on every night of its range (released or not: the
 * negotiated rate holds after release), or none when the block has no price (the plan's own nightly price).
 */
export const pickupPrice = (block: {
  readonly start_date: IsoDate
  readonly end_date: IsoDate
  readonly price: string | null
}): BlockPrice | null =>
  block.price === null ? null : { from: block.start_date, to: block.end_date, price: Money.fromDb(block.price) }

