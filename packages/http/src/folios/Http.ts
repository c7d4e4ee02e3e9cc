import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { FolioNotFound } from "@hotel/domain"
import { FolioRepository } from "@hotel/persistence/folios/FolioRepository"
import { HotelApi } from "@hotel/api/Api"
import { taggedJson } from "../platform/ConditionalRead.js"
import { FolioView } from "@hotel/api/folios/Api"
import { presentFolio } from "@hotel/persistence/folios/FolioView"
import { presentCharge, presentPayment } from "./FolioPresenter.js"
import { CurrentApiKey } from "@hotel/api/common/Security"
import { Charges } from "@hotel/persistence/folios/Charges"
import { Payments } from "@hotel/persistence/folios/Payments"
import * as Layer from "effect/Layer"

const FolioHandlers = HttpApiBuilder.group(HotelApi, "folios", (handlers) =>
  Effect.gen(function*() {
    const folios = yield* FolioRepository
    return handlers.handle("get", ({ params }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const now = new Date(yield* Clock.currentTimeMillis)
        const { folio, lines } = yield* folios.findById(key.propertyId, params.id, now).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(new FolioNotFound({ message: `No folio ${params.id}` })),
            onSome: Effect.succeed
          }))
        )
        return taggedJson(FolioView, presentFolio(folio, lines))
      }))
  }))

const ChargeHandlers = HttpApiBuilder.group(HotelApi, "charges", (handlers) =>
  Effect.gen(function*() {
    const charges = yield* Charges
    return handlers.handle("post", ({ params, payload }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const result = yield* charges.post(key.propertyId, params.id, {
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

const PaymentHandlers = HttpApiBuilder.group(HotelApi, "payments", (handlers) =>
  Effect.gen(function*() {
    const payments = yield* Payments
    return handlers.handle("create", ({ params, payload }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const recorded = yield* payments.record(key.propertyId, params.id, {
          reference: payload.payment_reference,
          amount: payload.amount,
          currency: payload.currency
        })
        return presentPayment(recorded)
      }))
  }))

/** The `folios` feature: its handlers with the services they call (the database, the event outbox and the clock come from outside). */
export const HttpFoliosLive = Layer.mergeAll(
  FolioHandlers,
  ChargeHandlers,
  PaymentHandlers
).pipe(Layer.provide(Layer.mergeAll(FolioRepository.layer, Charges.layer, Payments.layer)))
