import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import { FolioNotFound } from "@hotel/domain"
import { FolioRepository } from "@hotel/persistence/folios/FolioRepository"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { HotelApi } from "../Api.js"
import { presentFolio } from "../presenters/FolioPresenter.js"
import { CurrentApiKey } from "../Security.js"

export const FolioHandlers = HttpApiBuilder.group(HotelApi, "folios", (handlers) =>
  Effect.gen(function*() {
    const folios = yield* FolioRepository
    return handlers.handle("get", ({ path }) =>
      Effect.gen(function*() {
        const key = yield* CurrentApiKey
        const now = new Date(yield* Clock.currentTimeMillis)
        const { folio, lines } = yield* folios.findById(key.propertyId, path.id, now).pipe(
          Effect.flatten,
          Effect.mapError(() => new FolioNotFound({ message: `No folio ${path.id}` }))
        )
        return presentFolio(folio, lines)
      }))
  }))
