import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Effect from "effect/Effect"
import { Quotes } from "@hotel/persistence/quotes/Quotes"
import { HotelApi } from "@hotel/api/Api"
import { presentOffer } from "./QuotePresenter.js"
import { CurrentApiKey } from "@hotel/api/common/Security"
import { onStandby } from "@hotel/persistence/database/StandbyReads"
import * as Layer from "effect/Layer"

const RatesHandlers = HttpApiBuilder.group(HotelApi, "rates", (handlers) =>
  Effect.gen(function*() {
    const quotes = yield* Quotes
    // Quotes may be a moment stale (a hold checks again on the primary): a standby may serve them.
    return handlers.handle("rates", ({ query }) =>
      onStandby(Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const withTrace = query.include === "trace"
        const offers = yield* quotes.rates(key.propertyId, {
          checkIn: query.check_in,
          checkOut: query.check_out,
          party: {
            adults: query.adults,
            children: query.children ?? 0,
            // When present, the ages are the child count.
            childAges: query.child_ages ?? null
          },
          promoCode: query.promo_code ?? null,
          roomTypeId: query.room_type_id ?? null,
          ratePlanId: query.rate_plan_id ?? null,
          includeUnavailable: query.include_unavailable ?? false,
          trace: withTrace
        }, key.context)
        // The presenter builds exactly the `Offer` schema's encoded form (strings, numbers, no transformation),
        // so the answer is written as it is rather than checked again field by field (a 30-night quote on
        // many plans is hundreds of kilobytes), and as text: the server encodes it straight into the socket
        // instead of through an intermediate byte array. Its length is given, so it is not sent chunked.
        const text = JSON.stringify({ data: offers.map((offer) => presentOffer(offer, withTrace)) })
        return HttpServerResponse.raw(text, { contentType: "application/json", contentLength: Buffer.byteLength(text) })
      })))
  }))

/** The `quotes` feature: its handlers with the services they call (the database, the event outbox and the clock come from outside). */
export const HttpQuotesLive = RatesHandlers.pipe(Layer.provide(Quotes.layer))
