import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Changes as Rules } from "@hotel/domain"
import { ChangeQuote } from "@hotel/persistence/changes/ChangeQuote"
import { Changes } from "@hotel/persistence/changes/Changes"
import { HotelApi } from "@hotel/api/Api"
import { CurrentApiKey } from "@hotel/api/common/Security"
import { presentChangeQuote } from "./ChangePresenter.js"
import type { ChangeQuoteParams } from "@hotel/api/changes/Api"

/** The body (or the quote's query) as the services take it: a field left out keeps its value. */
const changeRequest = (sent: Partial<Rules.ReservationChange> | typeof ChangeQuoteParams.Type): Rules.ChangeRequest => ({
  checkIn: sent.check_in,
  checkOut: sent.check_out,
  roomTypeId: sent.room_type_id,
  ratePlanId: sent.rate_plan_id,
  adults: sent.adults,
  children: sent.children,
  childAges: sent.child_ages,
  promoCode: sent.promo_code,
  specialNotes: "special_notes" in sent ? sent.special_notes : undefined
})

const ChangeHandlers = HttpApiBuilder.group(HotelApi, "reservationChanges", (handlers) =>
  Effect.gen(function*() {
    const changes = yield* Changes
    return handlers.handle("change", ({ headers, params, payload }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        // The service answers the reservation as it rendered it for the change's event.
        return yield* changes.change(
          { propertyId: key.propertyId, salesContext: key.context },
          params.id,
          changeRequest(payload),
          headers["if-match"]
        )
      }))
  }))

const ChangeQuoteHandlers = HttpApiBuilder.group(HotelApi, "changeQuote", (handlers) =>
  Effect.gen(function*() {
    const quotes = yield* ChangeQuote
    return handlers.handle("get", ({ params, query }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const withTrace = query.include === "trace"
        const result = yield* quotes.quote({ propertyId: key.propertyId, salesContext: key.context }, params.id, changeRequest(query), withTrace)
        return presentChangeQuote(result, withTrace)
      }))
  }))

/** The `changes` feature: its handlers with the services they call. */
export const HttpChangesLive = Layer.mergeAll(ChangeHandlers, ChangeQuoteHandlers).pipe(
  Layer.provide(Layer.mergeAll(Changes.layer, ChangeQuote.layer))
)
