// The quote a hold books, decided from the offer `/rates` would show for its plan: a hold cannot book a plan the
// request could not see, nor at a price `/rates` would not quote.
import * as Result from "effect/Result"
import * as Option from "effect/Option"
import { NoAvailability } from "../errors/BusinessErrors.js"
import { RatePlanNotFound } from "../errors/NotFoundErrors.js"
import type { InvalidParameters } from "../errors/RequestErrors.js"
import { checkHoldTotal } from "../folios/charges.js"
import type { IsoDate } from "../quotes/dates.js"
import type { RoomType } from "../quotes/model.js"
import type { Offer, OfferPlan } from "../quotes/offer.js"
import type { Quote } from "../quotes/quote.js"

/**
 * No offer, or one with any reason but `sold_out` and `price_out_of_range` (`currency_unavailable` included), is
 * 404 `rate_plan_not_found`: this request cannot buy the plan, however many rooms are free. Sold out (or,
 * defensively, no quote) is 409 `no_availability`. A quote above what one folio holds (`price_out_of_range`) is
 * 400 on `rate_plan_id` (`checkHoldTotal`).
 */
export const bookableQuote = (
  offer: Option.Option<Offer<OfferPlan, RoomType>>,
  plan: { readonly id: string },
  roomType: { readonly name: string },
  stay: { readonly checkIn: IsoDate; readonly checkOut: IsoDate }
): Result.Result<Quote, RatePlanNotFound | NoAvailability | InvalidParameters> => {
  if (Option.isNone(offer)) {
    return Result.fail(new RatePlanNotFound({
      message: `Rate plan ${plan.id} is not offered for this room type, stay or sales context`
    }))
  }
  const hidden = offer.value.reasons.filter((reason) => reason !== "sold_out" && reason !== "price_out_of_range")
  if (hidden.length > 0) {
    return Result.fail(new RatePlanNotFound({
      message: `Rate plan ${plan.id} cannot be booked for this request (${hidden.join(", ")})`
    }))
  }
  if (offer.value.reasons.includes("sold_out") || Option.isNone(offer.value.quote)) {
    return Result.fail(new NoAvailability({
      message: `No ${roomType.name} is free on every night from ${stay.checkIn} to ${stay.checkOut}`
    }))
  }
  const quote = offer.value.quote.value
  return Result.map(checkHoldTotal(quote.total, quote.currency), () => quote)
}
