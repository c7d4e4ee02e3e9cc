import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { HotelApi } from "../Api.js"
import { currentRequestId } from "../Envelope.js"
import { CurrentApiKey } from "../Security.js"

export const MeHandlers = HttpApiBuilder.group(HotelApi, "me", (handlers) =>
  handlers.handle("me", () =>
    Effect.gen(function*() {
      const key = yield* CurrentApiKey
      return {
        api_key_id: key.id,
        property_id: key.propertyId,
        scopes: key.scopes,
        context: key.context,
        label: key.label,
        expires_at: key.expiresAt === null ? null : key.expiresAt.toISOString(),
        request_id: yield* FiberRef.get(currentRequestId)
      }
    })))
