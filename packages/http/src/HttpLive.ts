import type * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as HttpApiScalar from "effect/http-api/HttpApiScalar"
import * as HttpServer from "effect/http/HttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { makeAuthorization } from "./platform/Authorization.js"
import { GatewayLive } from "./platform/Gateway.js"
import { IdempotentTransactionLive } from "./platform/Idempotency.js"
import { RequestBodyLive } from "./platform/RequestBody.js"
import { makeRequestContext } from "./platform/RequestContext.js"

/** The pipeline's endpoint middleware for `api` (`HotelApi`, or a test's extension of it). */
export const middlewareFor = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
) => Layer.mergeAll(makeAuthorization(api), RequestBodyLive, IdempotentTransactionLive)

/**
 * `api` (`HotelApi`, or a test's extension of it) with the handlers of its groups (the features' layers,
 * chosen in `packages/server/src/main.ts`) behind the request pipeline. Needs what the handlers need, the
 * `Authenticator`, the `ClientAddress`, the `RateLimiter` and the `IdempotencyKeys`.
 */
export const apiWith = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R, HE, HR>(
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  handlers: Layer.Layer<HttpApiGroup.HttpApiGroup.ToService<Id, Groups>, HE, HR>
) => HttpApiBuilder.api(api).pipe(Layer.provide(handlers), Layer.provide(middlewareFor(api)))

/**
 * An API layer (`apiWith(...)`) served on whatever `HttpServer` is provided,
 * behind the gateway, with its description (`/openapi.json`) and docs page (`/docs`). Everything else it
 * needs comes from outside (see `packages/server/src/main.ts`). The request context wraps the API's app so
 * the error encoder sees the request id; each request is served to its end even when its client hangs up
 * (`platform/RequestContext.ts`).
 */
export const serveApi = <R>(api: Layer.Layer<HttpApi.Api, never, R>) =>
  Layer.unwrapEffect(
    Effect.map(Effect.all([HttpApiBuilder.httpApp, makeRequestContext]), ([app, withRequestContext]) =>
      HttpServer.serve(withRequestContext(app)))
  ).pipe(
    Layer.provide(GatewayLive),
    Layer.provide(HttpApiScalar.layer({ path: "/docs" })),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
    Layer.provide(HttpApiBuilder.Router.Live),
    Layer.provide(HttpApiBuilder.Middleware.layer),
    Layer.provide(api)
  )
