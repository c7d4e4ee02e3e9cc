import type { ApiKey } from "@hotel/domain"
import { MissingApiKey } from "@hotel/domain"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Authorization } from "../Security.js"

/** The key the gateway authenticated for the request being served. */
export const authenticatedKey: FiberRef.FiberRef<Option.Option<ApiKey>> = globalValue(
  Symbol.for("@hotel/http/authenticatedKey"),
  () => FiberRef.unsafeMake(Option.none<ApiKey>())
)

/** Hands the gateway's key to handlers; the gateway has already refused requests without one. */
export const AuthorizationLive = Layer.succeed(
  Authorization,
  Authorization.of({
    bearer: () =>
      FiberRef.get(authenticatedKey).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new MissingApiKey({ message: "An API key is required" })),
          onSome: Effect.succeed
        }))
      )
  })
)
