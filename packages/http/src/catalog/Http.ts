import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { CatalogRepository } from "@hotel/persistence/catalog/CatalogRepository"
import { HotelApi } from "@hotel/api/Api"
import { presentProperty, presentService } from "./CatalogPresenter.js"
import { CurrentApiKey } from "@hotel/api/common/Security"
import { keyPropertyExists } from "@hotel/persistence/platform/KeyProperty"
import { onStandby } from "@hotel/persistence/database/StandbyReads"
import * as Layer from "effect/Layer"

const CatalogHandlers = HttpApiBuilder.group(HotelApi, "catalog", (handlers) =>
  Effect.gen(function*() {
    const catalog = yield* CatalogRepository
    const details = (propertyId: string) =>
      catalog.details(propertyId).pipe(Effect.flatMap(keyPropertyExists(propertyId)))
    // The catalogue changes rarely and may be a moment stale: a standby may serve it.
    return handlers
      .handle("property", () =>
        onStandby(CurrentApiKey.pipe(Effect.flatMap((key) => details(key.propertyId)), Effect.map(presentProperty))))
      .handle("roomTypes", () =>
        onStandby(CurrentApiKey.pipe(
          Effect.flatMap((key) => catalog.roomTypes(key.propertyId)),
          Effect.map((rows) => ({ data: rows }))
        )))
      .handle("services", () =>
        onStandby(Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const property = yield* catalog.property(key.propertyId).pipe(Effect.flatMap(keyPropertyExists(key.propertyId)))
          const rows = yield* catalog.services(key.propertyId)
          return { data: rows.map((row) => presentService(row, property.base_currency)) }
        })))
  }))

/** The `catalog` feature: its handlers with the services they call (the database, the event outbox and the clock come from outside). */
export const HttpCatalogLive = CatalogHandlers.pipe(Layer.provide(CatalogRepository.layer))
