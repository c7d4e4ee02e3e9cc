import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { Charges } from "@hotel/persistence/folios/Charges"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { presentCharge } from "../presenters/FolioPresenter.js"
import { CurrentApiKey } from "../Security.js"

export const ChargeHandlers = HttpApiBuilder.group(HotelApi, "charges", (handlers) =>
  Effect.gen(function*() {
    const charges = yield* Charges
    return handlers.handle("post", ({ path, payload }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const result = yield* charges.post(key.propertyId, path.id, {
          description: payload.description,
          amount: payload.amount,
          currency: payload.currency,
          revenueCategory: payload.revenue_category,
          serviceId: payload.service_id ?? null,
          quantity: payload.quantity ?? 1
        })
        return presentCharge(result)
      }))
  }))
