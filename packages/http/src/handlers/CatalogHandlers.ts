import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { CatalogRepository } from "@hotel/persistence/CatalogRepository"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { HotelApi } from "../Api.js"
import { presentProperty, presentService } from "../presenters/CatalogPresenter.js"
import { CurrentApiKey } from "../Security.js"

export const CatalogHandlers = HttpApiBuilder.group(HotelApi, "catalog", (handlers) =>
  Effect.gen(function*() {
    const catalog = yield* CatalogRepository
    // A key always names an existing property (foreign key), so a missing one is a defect.
    const details = (propertyId: string) =>
      catalog.details(propertyId).pipe(Effect.flatMap(Option.match({
        onNone: () => Effect.dieMessage(`property ${propertyId} of a valid key is missing`),
        onSome: Effect.succeed
      })))
    return handlers
      .handle("property", () => CurrentApiKey.pipe(Effect.flatMap((key) => details(key.propertyId)), Effect.map(presentProperty)))
      .handle("roomTypes", () =>
        CurrentApiKey.pipe(
          Effect.flatMap((key) => catalog.roomTypes(key.propertyId)),
          Effect.map((rows) => ({ data: rows }))
        ))
      .handle("services", () =>
        Effect.gen(function*() {
          const key = yield* CurrentApiKey
          const { property } = yield* details(key.propertyId)
          const rows = yield* catalog.services(key.propertyId)
          return { data: rows.map((row) => presentService(row, property.base_currency)) }
        }))
  }))
