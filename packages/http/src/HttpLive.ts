import type * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiScalar from "@effect/platform/HttpApiScalar"
import * as HttpServer from "@effect/platform/HttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HotelApi } from "./Api.js"
import { makeAuthorization } from "./platform/Authorization.js"
import { GatewayLive } from "./platform/Gateway.js"
import { servedToTheEnd } from "./platform/HangUp.js"
import { IdempotentTransactionLive } from "./platform/Idempotency.js"
import { RequestBodyLive } from "./platform/RequestBody.js"
import { withRequestContext } from "./platform/RequestContext.js"
import { makeRouterLookup } from "./platform/Routes.js"
import { AvailabilityHandlers } from "./quotes/Http.js"
import { CatalogHandlers } from "./catalog/Http.js"
import { GuestHandlers } from "./guests/Http.js"
import { HoldHandlers } from "./booking/Http.js"
import { ReservationActionHandlers } from "./booking/Http.js"
import { ReservationReadHandlers } from "./booking/Http.js"
import { HealthHandlers } from "./platform/Http.js"
import { MeHandlers } from "./platform/Http.js"
import { InclusionHandlers } from "./rates/Http.js"
import { IntervalHandlers } from "./rates/Http.js"
import { PromoCodeHandlers } from "./rates/Http.js"
import { RatePlanWriteHandlers } from "./rates/Http.js"
import { RatePlanReadHandlers } from "./rates/Http.js"
import { RatesHandlers } from "./quotes/Http.js"
import { CancellationQuoteHandlers } from "./booking/Http.js"
import { ChargeHandlers } from "./folios/Http.js"
import { FolioHandlers } from "./folios/Http.js"
import { LoyaltyHandlers } from "./guests/Http.js"
import { StayHandlers } from "./stays/Http.js"
import { EventHandlers } from "./events/Http.js"
import { WebhookHandlers } from "./webhooks/Http.js"

export const HandlersLive = Layer.mergeAll(
  MeHandlers,
  HealthHandlers,
  CatalogHandlers,
  RatePlanReadHandlers,
  RatePlanWriteHandlers,
  IntervalHandlers,
  InclusionHandlers,
  PromoCodeHandlers,
  AvailabilityHandlers,
  RatesHandlers,
  GuestHandlers,
  ReservationReadHandlers,
  HoldHandlers,
  ReservationActionHandlers,
  FolioHandlers,
  ChargeHandlers,
  LoyaltyHandlers,
  StayHandlers,
  CancellationQuoteHandlers,
  EventHandlers,
  WebhookHandlers
)

/** The pipeline's endpoint middleware for `api` (`HotelApi`, or a test's extension of it). */
export const middlewareFor = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
) => Layer.mergeAll(makeAuthorization(api), RequestBodyLive, IdempotentTransactionLive)

/**
 * `HotelApi` with its handlers and middleware. Needs the services the handlers call (repositories and
 * transaction services), the `Authenticator`, the `ClientAddress`, the `RateLimiter` and the `IdempotencyKeys`.
 */
export const ApiLive = HttpApiBuilder.api(HotelApi).pipe(
  Layer.provide(HandlersLive),
  Layer.provide(middlewareFor(HotelApi))
)

/**
 * An API layer (`ApiLive`, or a test's extension of it) served on whatever `HttpServer` is provided,
 * behind the gateway, with its description (`/openapi.json`) and docs page (`/docs`). Everything else it
 * needs comes from outside (see `packages/server/src/main.ts`). The request context wraps the API's app so
 * the error encoder sees the request id; each request is served to its end even when its client hangs up
 * (`platform/HangUp.ts`).
 */
export const serveApi = <R>(api: Layer.Layer<HttpApi.Api, never, R>) =>
  Layer.unwrapEffect(
    Effect.map(Effect.all([HttpApiBuilder.httpApp, makeRouterLookup]), ([app, routes]) =>
      HttpServer.serve(servedToTheEnd(withRequestContext(app, routes))))
  ).pipe(
    Layer.provide(GatewayLive),
    Layer.provide(HttpApiScalar.layer({ path: "/docs" })),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
    Layer.provide(HttpApiBuilder.Router.Live),
    Layer.provide(HttpApiBuilder.Middleware.layer),
    Layer.provide(api)
  )

/** The whole API served on whatever `HttpServer` is provided. */
export const HttpLive = serveApi(ApiLive)
