import type { Changes, Folio } from "@hotel/domain"
import type { ChangeQuoteParams } from "@hotel/api/changes/Api"
import * as Effect from "effect/Effect"
import { clientOf } from "./client.js"
import type { RequestOptions } from "./http.js"
import type { TestApiService } from "./TestServer.js"

// Builders shared by the tests of changes (PATCH /reservations/{id}, its quote, further payments).

export type ChangeBody = typeof Changes.ReservationChange.Type
export type QuoteParams = typeof ChangeQuoteParams.Type

/** A change that must succeed (200); returns the reservation it answers. */
export const change = (
  api: TestApiService,
  id: string,
  payload: ChangeBody,
  options: RequestOptions & { readonly ifMatch?: string } = {}
) => {
  const { ifMatch, ...request } = options
  return Effect.flatMap(clientOf(api, request), (client) =>
    client.reservationChanges.change({ params: { id }, payload, headers: ifMatch === undefined ? {} : { "if-match": ifMatch } }))
}

/** Raw `PATCH /reservations/{id}`: for malformed bodies and the exact wire of errors. */
export const patchReservation = (api: TestApiService, id: string, body: unknown, options?: RequestOptions) =>
  api.patch(`/reservations/${id}`, body, options)

/** `GET /reservations/{id}/change-quote` that must succeed (200). */
export const changeQuote = (api: TestApiService, id: string, params: QuoteParams = {}, options: RequestOptions = {}) =>
  Effect.flatMap(clientOf(api, options), (client) => client.changeQuote.get({ params: { id }, query: params }))

/** A payment that must succeed (201): `amount` in EUR with a fresh reference unless given. */
export const pay = (
  api: TestApiService,
  id: string,
  body: Partial<typeof Folio.PaymentCreate.Type> & { readonly amount: string },
  options: RequestOptions = {}
) =>
  Effect.flatMap(clientOf(api, options), (client) =>
    client.payments.create({ headers: {},
      params: { id },
      payload: { payment_reference: `pay_${globalThis.crypto.randomUUID()}`, currency: "EUR", ...body }
    }))

/** Raw `POST /reservations/{id}/payments`. */
export const postPayment = (api: TestApiService, id: string, body: unknown, options?: RequestOptions) =>
  api.post(`/reservations/${id}/payments`, body, options)
