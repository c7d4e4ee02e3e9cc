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
import { Authenticator } from "./gateway/Authenticator.js"
import { AuthorizationLive } from "./gateway/CurrentKey.js"
import { GatewayLive } from "./gateway/Gateway.js"
import { withRequestContext } from "./gateway/RequestContext.js"
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
  CancellationQuoteHandlers
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
  CancellationQuote.Default
)

const ApiLive = HttpApiBuilder.api(HotelApi).pipe(
  Layer.provide(HandlersLive),
  Layer.provide(AuthorizationLive)
)

/**
 * An API layer (`HotelApi`'s, or a test's extension of it) served on whatever `HttpServer` is provided,
 * behind the gateway; needs the platform services (`PlatformLive` or `PlatformInMemory`) and a `SqlClient`.
 * The request context wraps the API's app so the error encoder sees the request id.
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
    Layer.provide(Authenticator.layer),
    Layer.provide(RepositoriesLive)
  )

/** The whole API served on whatever `HttpServer` is provided; needs only a `SqlClient`. */
export const HttpLive = serveApi(ApiLive).pipe(Layer.provide(PlatformLive))
