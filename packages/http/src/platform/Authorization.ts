import type * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { InsufficientScope } from "@hotel/domain"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Authorization } from "../common/Security.js"
import { makeRateLimits } from "./RateLimit.js"
import { endpointIndex, routedEndpoint } from "./Routes.js"

/**
 * `Authorization` for the endpoints of `api` (`HotelApi`, or a test's extension of it), run once the router
 * has chosen the endpoint: authentication (401, failures limited per address), the key's rate limit (429),
 * then the endpoint's scope (403). The framework's bearer decoding is not used: it accepts any scheme, so
 * the header is read and checked here.
 */
export const makeAuthorization = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
) =>
  Layer.effect(
    Authorization,
    Effect.gen(function*() {
      const endpoints = endpointIndex(api)
      const limits = yield* makeRateLimits
      return Authorization.of({
        // Every authenticated request runs this: no generator, the request and route read in one step.
        bearer: () =>
          Effect.contextWithEffect((context: Context.Context<HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext>) => {
            const request = Context.get(context, HttpServerRequest.HttpServerRequest)
            const route = Context.get(context, HttpRouter.RouteContext)
            return limits.authenticate(request).pipe(
              Effect.tap(limits.limitKey),
              Effect.flatMap(({ key }) => {
                const scope = Option.flatMap(routedEndpoint(endpoints, route), (endpoint) => endpoint.scope)
                return Option.isSome(scope) && !key.hasScope(scope.value)
                  ? Effect.fail(new InsufficientScope({ message: `This endpoint needs the scope ${scope.value}` }))
                  : Effect.succeed(key)
              })
            )
          })
      })
    })
  )
