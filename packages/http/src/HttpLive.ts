import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiScalar from "@effect/platform/HttpApiScalar"
import * as HttpServer from "@effect/platform/HttpServer"
import { ApiKeyRepository } from "@hotel/persistence/ApiKeyRepository"
import { CatalogRepository } from "@hotel/persistence/CatalogRepository"
import { Cancellations } from "@hotel/persistence/Cancellations"
import { Confirmations } from "@hotel/persistence/Confirmations"
import { GuestRepository } from "@hotel/persistence/GuestRepository"
import { Holds } from "@hotel/persistence/Holds"
import { ReservationQueries } from "@hotel/persistence/ReservationQueries"
import { Inventory } from "@hotel/persistence/Inventory"
import { PricingInputs } from "@hotel/persistence/PricingInputs"
import { QuoteService } from "@hotel/persistence/QuoteService"
import { InclusionRepository } from "@hotel/persistence/InclusionRepository"
import { IntervalRepository } from "@hotel/persistence/IntervalRepository"
import { PromoCodeRepository } from "@hotel/persistence/PromoCodeRepository"
import { RateManagement } from "@hotel/persistence/RateManagement"
import { PlatformLive } from "@hotel/persistence/Platform"
import { RatePlanRepository } from "@hotel/persistence/RatePlanRepository"
import { CancellationQuote } from "@hotel/persistence/CancellationQuote"
import { Charges } from "@hotel/persistence/Charges"
import { FolioRepository } from "@hotel/persistence/FolioRepository"
import { Loyalty } from "@hotel/persistence/Loyalty"
import { StayTransitions } from "@hotel/persistence/StayTransitions"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HotelApi } from "./Api.js"
import { EventsLive } from "./events/EventsLive.js"
import { Authenticator } from "./gateway/Authenticator.js"
import { AuthorizationLive } from "./gateway/CurrentKey.js"
import { GatewayLive } from "./gateway/Gateway.js"
import { withRequestContext } from "./gateway/RequestContext.js"
import { AvailabilityHandlers } from "./handlers/AvailabilityHandlers.js"
import { CatalogHandlers } from "./handlers/CatalogHandlers.js"
import { GuestHandlers } from "./handlers/GuestHandlers.js"
import { HoldHandlers } from "./handlers/HoldHandlers.js"
import { ReservationActionHandlers } from "./handlers/ReservationActionHandlers.js"
import { ReservationReadHandlers } from "./handlers/ReservationReadHandlers.js"
import { HealthHandlers } from "./handlers/HealthHandlers.js"
import { MeHandlers } from "./handlers/MeHandlers.js"
import { InclusionHandlers } from "./handlers/InclusionHandlers.js"
import { IntervalHandlers } from "./handlers/IntervalHandlers.js"
import { PromoCodeHandlers } from "./handlers/PromoCodeHandlers.js"
import { RatePlanWriteHandlers } from "./handlers/RatePlanWriteHandlers.js"
import { RatePlanReadHandlers } from "./handlers/RatePlanReadHandlers.js"
import { RatesHandlers } from "./handlers/RatesHandlers.js"
import { CancellationQuoteHandlers } from "./handlers/CancellationQuoteHandlers.js"
import { ChargeHandlers } from "./handlers/ChargeHandlers.js"
import { FolioHandlers } from "./handlers/FolioHandlers.js"
import { LoyaltyHandlers } from "./handlers/LoyaltyHandlers.js"
import { StayHandlers } from "./handlers/StayHandlers.js"
import { EventHandlers } from "./events/Http.js"
import { WebhookHandlers } from "./webhooks/Http.js"
import { EventFeed } from "@hotel/persistence/events/EventFeed"
import { WebhookEndpoints } from "@hotel/persistence/webhooks/WebhookEndpoints"
import { WebhookPolicy } from "@hotel/persistence/webhooks/WebhookPolicy"

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

const RepositoriesLive = Layer.mergeAll(
  ApiKeyRepository.Default,
  CatalogRepository.Default,
  RatePlanRepository.Default,
  RateManagement.Default,
  IntervalRepository.Default,
  InclusionRepository.Default,
  PromoCodeRepository.Default,
  PricingInputs.Default,
  Inventory.Default,
  QuoteService.Default,
  GuestRepository.Default,
  ReservationQueries.Default,
  Holds.Default,
  Confirmations.Default,
  Cancellations.Default,
  FolioRepository.Default,
  Charges.Default,
  Loyalty.Default,
  StayTransitions.Default,
  CancellationQuote.Default,
  EventFeed.Default,
  WebhookEndpoints.Default.pipe(Layer.provide(WebhookPolicy.layer))
)

const ApiLive = HttpApiBuilder.api(HotelApi).pipe(
  Layer.provide(HandlersLive),
  Layer.provide(AuthorizationLive)
)

/**
 * An API layer (`HotelApi`'s, or a test's extension of it) served on whatever `HttpServer` is provided,
 * behind the gateway; needs the platform services (`PlatformLive` or `PlatformInMemory`) and a `SqlClient`.
 * The request context wraps the API's app so the error encoder sees the request id. It also provides the event
 * outbox (to the handlers' write services, and to whoever builds on it, like the hold sweeper).
 */
export const serveApi = <R>(api: Layer.Layer<HttpApi.Api, never, R>) =>
  Layer.unwrapEffect(
    Effect.map(HttpApiBuilder.httpApp, (app) => HttpServer.serve(withRequestContext(app)))
  ).pipe(
    Layer.provide(GatewayLive),
    Layer.provide(HttpApiScalar.layer({ path: "/docs" })),
    Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
    Layer.provide(HttpApiBuilder.Router.Live),
    Layer.provide(HttpApiBuilder.Middleware.layer),
    Layer.provide(api),
    Layer.provideMerge(EventsLive),
    Layer.provide(Authenticator.layer),
    Layer.provide(RepositoriesLive)
  )

/** The whole API served on whatever `HttpServer` is provided; needs only a `SqlClient`. */
export const HttpLive = serveApi(ApiLive).pipe(Layer.provide(PlatformLive))
