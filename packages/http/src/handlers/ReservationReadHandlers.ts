import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { ReservationNotFound } from "@hotel/domain"
import { CatalogRepository } from "@hotel/persistence/catalog/CatalogRepository"
import { ReservationQueries } from "@hotel/persistence/booking/ReservationQueries"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { presentListItem, presentReservation } from "../presenters/ReservationPresenter.js"
import { CurrentApiKey } from "../Security.js"
import { keyPropertyExists } from "@hotel/persistence/platform/KeyProperty"

export const ReservationReadHandlers = HttpApiBuilder.group(HotelApi, "reservationReads", (handlers) =>
  Effect.gen(function*() {
    const reservations = yield* ReservationQueries
    const catalog = yield* CatalogRepository
    // The flat balance fields are valued in the property's base currency.
    const context = Effect.gen(function*() {
      const key = yield* CurrentApiKey
      const property = yield* catalog.property(key.propertyId).pipe(Effect.flatMap(keyPropertyExists(key.propertyId)))
      const now = new Date(yield* Clock.currentTimeMillis)
      return { propertyId: key.propertyId, baseCurrency: property.base_currency, now }
    })
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const { baseCurrency, now, propertyId } = yield* context
          const page = yield* reservations.list(propertyId, {
            guestId: urlParams.guest_id,
            status: urlParams.status,
            limit: urlParams.limit ?? 25,
            offset: urlParams.offset ?? 0
          }, now)
          const lines = yield* reservations.folioLines(page.rows.map((row) => row.folio_id))
          return { has_more: page.hasMore, data: page.rows.map((row) => presentListItem(row, lines, baseCurrency)) }
        }))
      .handle("get", ({ path }) =>
        Effect.gen(function*() {
          const { baseCurrency, now, propertyId } = yield* context
          const row = yield* reservations.findById(propertyId, path.id, now).pipe(
            Effect.flatten,
            Effect.mapError(() => new ReservationNotFound({ message: `No reservation ${path.id}` }))
          )
          const [accommodations, lines] = yield* Effect.all([
            reservations.accommodations([row.id], now),
            reservations.folioLines([row.folio_id])
          ])
          return presentReservation(row, accommodations, lines, baseCurrency)
        }))
  }))
