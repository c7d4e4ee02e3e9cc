import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import { InsufficientScope } from "@hotel/domain"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { unhandled } from "effect/Types"
import { Authorization, CurrentApiKey, RequiredScope } from "@hotel/api/common/Security"
import { makeRateLimits } from "./RateLimit.js"

/**
 * `Authorization` for every endpoint it guards, run once the router has chosen the endpoint: authentication
 * (401, failures limited per address), the key's rate limit (429), then the endpoint's scope (403); the key is
 * then the handler's `CurrentApiKey`. The framework's bearer decoding is not used: the header is read and
 * checked here (`Authenticator.ts`), with the contract's messages.
 */
export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function*() {
    const limits = yield* makeRateLimits
    return Authorization.of({
      // Every authenticated request runs this: no generator, the request and the scope read in one step.
      bearer: (httpEffect, { endpoint, group }) =>
        Effect.withFiber((fiber) => {
          const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
          return limits.authenticate(request).pipe(
            Effect.tap(limits.limitKey),
            Effect.flatMap(({ key }): Effect.Effect<HttpServerResponse.HttpServerResponse, unhandled | InsufficientScope> => {
              // The endpoint's own scope, else its group's (which holds the API's annotations too).
              const scope = Option.orElse(
                Context.getOption(endpoint.annotations, RequiredScope),
                () => Context.getOption(group.annotations, RequiredScope)
              )
              return Option.isSome(scope) && !key.hasScope(scope.value)
                ? Effect.fail(new InsufficientScope({ message: `This endpoint needs the scope ${scope.value}` }))
                : Effect.provideService(httpEffect, CurrentApiKey, key)
            })
          )
        })
    })
  })
)
