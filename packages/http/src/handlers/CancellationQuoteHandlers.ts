import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { CancellationQuote } from "@hotel/persistence/booking/CancellationQuote"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { presentCancellationQuote } from "../presenters/StayPresenter.js"
import { CurrentApiKey } from "../Security.js"

export const CancellationQuoteHandlers = HttpApiBuilder.group(HotelApi, "cancellationQuote", (handlers) =>
  Effect.gen(function*() {
    const quotes = yield* CancellationQuote
    return handlers.handle("get", ({ path }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        return presentCancellationQuote(yield* quotes.quote(key.propertyId, path.id))
      }))
  }))
