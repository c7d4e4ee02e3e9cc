import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Clock from "effect/Clock"
import { Quotes } from "@hotel/persistence/quotes/Quotes"
import { HotelApi } from "../Api.js"
import { presentOffer, presentAvailability } from "./QuotePresenter.js"
import { CurrentApiKey } from "../common/Security.js"
import { Inventory } from "@hotel/persistence/quotes/Inventory"
import * as Layer from "effect/Layer"

const RatesHandlers = HttpApiBuilder.group(HotelApi, "rates", (handlers) =>
  Effect.gen(function*() {
    const quotes = yield* Quotes
    return handlers.handle("rates", ({ urlParams }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const withTrace = urlParams.trace ?? true
        const offers = yield* quotes.rates(key.propertyId, {
          checkIn: urlParams.check_in,
          checkOut: urlParams.check_out,
          party: {
            adults: urlParams.adults,
            children: urlParams.children ?? 0,
            // When present, the ages are the child count.
            childAges: urlParams.child_ages ?? null
          },
          promoCode: urlParams.promo_code ?? null,
          roomTypeId: urlParams.room_type_id ?? null,
          ratePlanId: urlParams.rate_plan_id ?? null,
          includeUnavailable: urlParams.include_unavailable ?? false,
          trace: withTrace
        }, key.context)
        // The presenter builds exactly the `Offer` schema's encoded form (strings, numbers, no transformation),
        // so the answer is written as it is rather than checked again field by field (a 30-night quote on
        // many plans is hundreds of kilobytes), and as text: the server encodes it straight into the socket
        // instead of through an intermediate byte array. Its length is given, so it is not sent chunked.
        const text = JSON.stringify({ data: offers.map((offer) => presentOffer(offer, withTrace)) })
        return HttpServerResponse.raw(text, { contentType: "application/json", contentLength: Buffer.byteLength(text) })
      }))
  }))

const AvailabilityHandlers = HttpApiBuilder.group(HotelApi, "availability", (handlers) =>
  Effect.gen(function*() {
    const inventory = yield* Inventory
    return handlers.handle("availability", ({ urlParams }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const now = new Date(yield* Clock.currentTimeMillis)
        const entries = yield* inventory.calendar(key.propertyId, {
          startDate: urlParams.start_date,
          endDate: urlParams.end_date,
          roomTypeId: urlParams.room_type_id ?? null,
          now
        })
        return { data: entries.map(presentAvailability) }
      }))
  }))

/** The `quotes` feature: its handlers with the services they call (the database, the event outbox and the clock come from outside). */
export const HttpQuotesLive = Layer.mergeAll(
  RatesHandlers,
  AvailabilityHandlers
).pipe(Layer.provide(Layer.mergeAll(Quotes.Default, Inventory.Default)))
