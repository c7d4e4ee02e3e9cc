import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import { AvailabilityApi } from "./api/AvailabilityApi.js"
import { CatalogApi } from "./api/CatalogApi.js"
import { GuestsApi } from "./api/GuestsApi.js"
import { HoldsApi } from "./api/HoldsApi.js"
import { ReservationActionsApi } from "./api/ReservationActionsApi.js"
import { ReservationReadsApi } from "./api/ReservationsApi.js"
import { HealthApi } from "./api/HealthApi.js"
import { MeApi } from "./api/MeApi.js"
import { RatePlanReadsApi } from "./api/RatePlansApi.js"
import { RatesApi } from "./api/RatesApi.js"
import { InclusionsApi } from "./api/InclusionsApi.js"
import { IntervalsApi } from "./api/IntervalsApi.js"
import { PromoCodesApi } from "./api/PromoCodesApi.js"
import { RatePlanWritesApi } from "./api/RatePlanWritesApi.js"
import { CancellationQuoteApi } from "./api/CancellationQuoteApi.js"
import { ChargesApi } from "./api/ChargesApi.js"
import { FoliosApi } from "./api/FoliosApi.js"
import { LoyaltyApi } from "./api/LoyaltyApi.js"
import { StayApi } from "./api/StayApi.js"
import { EventsApi } from "./events/Api.js"
import { withEventWebhooks } from "./events/openapi.js"
import { WebhookEndpointNotFoundError, WebhooksApi } from "./webhooks/Api.js"
import * as Errors from "./Errors.js"
import { stripDefaultDecodeError } from "./OpenApiTransform.js"

/**
 * The contract. Clients import this (and nothing of the server) to derive typed clients.
 * Errors any endpoint may answer with are declared here, once.
 */
export class HotelApi extends HttpApi.make("hotel")
  .add(HealthApi)
  .add(MeApi)
  .add(CatalogApi)
  .add(RatePlanReadsApi)
  .add(RatePlanWritesApi)
  .add(IntervalsApi)
  .add(InclusionsApi)
  .add(PromoCodesApi)
  .add(AvailabilityApi)
  .add(RatesApi)
  .add(GuestsApi)
  .add(ReservationReadsApi)
  .add(HoldsApi)
  .add(ReservationActionsApi)
  .add(FoliosApi)
  .add(ChargesApi)
  .add(LoyaltyApi)
  .add(StayApi)
  .add(CancellationQuoteApi)
  .add(EventsApi)
  .add(WebhooksApi)
  .addError(Errors.InvalidParameters)
  .addError(Errors.InvalidJson)
  .addError(Errors.MissingApiKey)
  .addError(Errors.InvalidApiKey)
  .addError(Errors.InsufficientScope)
  .addError(Errors.UnknownRoute)
  .addError(Errors.MethodNotAllowed)
  .addError(Errors.PayloadTooLarge)
  .addError(Errors.IdempotencyKeyReuse)
  .addError(Errors.IdempotencyInProgress)
  .addError(Errors.RateLimited)
  .addError(Errors.MaintenanceMode)
  .addError(Errors.InternalError)
  // A path id that is not this property's resource (or not an id at all) is that resource's 404.
  .addError(Errors.RatePlanNotFound)
  .addError(Errors.IntervalNotFound)
  .addError(Errors.PromoCodeNotFound)
  .addError(Errors.ReservationNotFound)
  .addError(Errors.GuestNotFound)
  .addError(Errors.FolioNotFound)
  .addError(WebhookEndpointNotFoundError)
  .annotateContext(OpenApi.annotations({
    title: "Hotel rate management and reservations",
    version: "1.0.0",
    transform: (spec) => withEventWebhooks(stripDefaultDecodeError(spec))
  }))
{}
