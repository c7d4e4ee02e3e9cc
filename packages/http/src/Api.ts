import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import { AvailabilityApi } from "./quotes/Api.js"
import { CatalogApi } from "./catalog/Api.js"
import { GuestsApi } from "./guests/Api.js"
import { HoldsApi } from "./booking/Api.js"
import { ReservationActionsApi } from "./booking/Api.js"
import { ReservationReadsApi } from "./booking/Api.js"
import { HealthApi } from "./platform/Api.js"
import { MeApi } from "./platform/Api.js"
import { RatePlanReadsApi } from "./rates/Api.js"
import { RatesApi } from "./quotes/Api.js"
import { InclusionsApi } from "./rates/RateManagementApi.js"
import { IntervalsApi } from "./rates/RateManagementApi.js"
import { PromoCodesApi } from "./rates/RateManagementApi.js"
import { RatePlanWritesApi } from "./rates/Api.js"
import { CancellationQuoteApi } from "./booking/Api.js"
import { ChargesApi } from "./folios/Api.js"
import { FoliosApi } from "./folios/Api.js"
import { LoyaltyApi } from "./guests/Api.js"
import { StayApi } from "./stays/Api.js"
import { EventsApi } from "./events/Api.js"
import { WebhookEndpointNotFoundError, WebhooksApi } from "./webhooks/Api.js"
import * as Errors from "./common/Errors.js"
import { describeDocument } from "./openapi/Document.js"

/** The endpoints with their own errors; the description reads what each operation can answer from it. */
export const Endpoints = HttpApi.make("hotel")
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

/**
 * The contract. Clients import this (and nothing of the server) to derive typed clients.
 * The errors the gateway may answer with are declared here, once; the description lists under each
 * operation only those it can meet.
 */
export class HotelApi extends Endpoints
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
  .addError(Errors.DatabaseBusy)
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
    description: "Rates, availability, holds, reservations, stays and folios of one hotel property. " +
      "Authenticate with `Authorization: Bearer <key>`; every error is `{ \"error\": { type, code, message, param, " +
      "request_id } }`. The guide is `docs/api.md` in the repository.",
    servers: [{ url: "http://127.0.0.1:3000", description: "A local server (`npm start`)" }],
    transform: describeDocument(Endpoints)
  }))
{}
