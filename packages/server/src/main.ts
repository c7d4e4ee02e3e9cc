import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServer from "@effect/platform/HttpServer"
import type * as SqlClient from "@effect/sql/SqlClient"
import { HttpLive } from "@hotel/http/HttpLive"
import { Authenticator } from "@hotel/http/platform/Authenticator"
import { ClientAddress } from "@hotel/http/platform/ClientAddress"
import { ApiKeyRepository } from "@hotel/persistence/platform/ApiKeyRepository"
import { CancellationQuote } from "@hotel/persistence/booking/CancellationQuote"
import { Cancellations } from "@hotel/persistence/booking/Cancellations"
import { CatalogRepository } from "@hotel/persistence/catalog/CatalogRepository"
import { Charges } from "@hotel/persistence/folios/Charges"
import { Confirmations } from "@hotel/persistence/booking/Confirmations"
import { FolioRepository } from "@hotel/persistence/folios/FolioRepository"
import { GuestRepository } from "@hotel/persistence/guests/GuestRepository"
import { Holds } from "@hotel/persistence/booking/Holds"
import { HoldSweeperLive } from "@hotel/persistence/booking/HoldSweeper"
import { EventsLive } from "@hotel/http/events/EventsLive"
import { EventFeed } from "@hotel/persistence/events/EventFeed"
import { EventPurgeLive } from "@hotel/persistence/events/EventPurge"
import { WebhookWorkerLive } from "@hotel/persistence/webhooks/WebhookDispatcher"
import { WebhookEndpoints } from "@hotel/persistence/webhooks/WebhookEndpoints"
import { WebhookPolicy } from "@hotel/persistence/webhooks/WebhookPolicy"
import { IdempotencyKeys } from "@hotel/persistence/platform/IdempotencyKeys"
import { InclusionRepository } from "@hotel/persistence/rates/InclusionRepository"
import { IntervalRepository } from "@hotel/persistence/rates/IntervalRepository"
import { Inventory } from "@hotel/persistence/quotes/Inventory"
import { Loyalty } from "@hotel/persistence/guests/Loyalty"
import type { MaintenanceRepository } from "@hotel/persistence/platform/MaintenanceRepository"
import { PlatformLive } from "@hotel/persistence/platform/Platform"
import { PricingInputs } from "@hotel/persistence/quotes/PricingInputs"
import { PromoCodeRepository } from "@hotel/persistence/rates/PromoCodeRepository"
import { Quotes } from "@hotel/persistence/quotes/Quotes"
import type { RateLimiter } from "@hotel/persistence/platform/RateLimiter"
import { RateManagement } from "@hotel/persistence/rates/RateManagement"
import { RatePlanRepository } from "@hotel/persistence/rates/RatePlanRepository"
import { ReservationReads } from "@hotel/persistence/booking/ReservationReads"
import { StayTransitions } from "@hotel/persistence/stays/StayTransitions"
import * as Layer from "effect/Layer"
import { MigratedDatabaseLive } from "./runtime/Database.js"
import { LoggingLive } from "./observability/Logging.js"
import { MetricsServerLive } from "./observability/MetricsServer.js"
import { TracingLive } from "./observability/Tracing.js"
import { DrainingServerLive, DrainOnShutdownLive } from "./runtime/DrainingServer.js"

// The composition root: every layer of the running application is chosen here, and only here.

/** The repositories and transaction services the handlers call; each needs only a `SqlClient`. */
export const RepositoriesLive = Layer.mergeAll(
  ApiKeyRepository.Default,
  CatalogRepository.Default,
  RatePlanRepository.Default,
  RateManagement.Default,
  IntervalRepository.Default,
  InclusionRepository.Default,
  PromoCodeRepository.Default,
  PricingInputs.Default,
  Inventory.Default,
  Quotes.Default,
  GuestRepository.Default,
  ReservationReads.Default,
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

/** The platform services of the request pipeline: `PlatformLive` (Postgres) or `PlatformInMemory` (tests). */
export type PlatformLayer = Layer.Layer<RateLimiter | IdempotencyKeys | MaintenanceRepository, never, SqlClient.SqlClient>

/** Everything the HTTP layer takes from outside, with the given platform services. */
export const servicesWith = (platform: PlatformLayer) =>
  Layer.mergeAll(Authenticator.layer, EventsLive, ClientAddress.layer).pipe(Layer.provideMerge(Layer.mergeAll(RepositoriesLive, platform)))

/**
 * The background work of every process: the sweeper of expired holds, webhook delivery, the event purge and
 * the purge of expired idempotency keys.
 */
export const WorkersLive = Layer.mergeAll(
  HoldSweeperLive,
  WebhookWorkerLive.pipe(Layer.provide(WebhookPolicy.layer)),
  EventPurgeLive,
  IdempotencyKeys.purgeEvery()
)

/** Logs (`LOG_FORMAT`, `LOG_LEVEL`) and traces (`OTEL_EXPORTER_OTLP_ENDPOINT`); see docs/operations.md. */
export const ObservabilityLive = Layer.merge(LoggingLive, TracingLive)

// A load balancer's health checks every few seconds would be most of the traces.
const isHealthCheck = (request: { readonly url: string }) => request.url.startsWith("/health/")

/**
 * The API on `HOST:PORT` (`DrainingServerLive`), the metrics on `METRICS_PORT` (when set) and the background
 * workers, over whatever `SqlClient` is provided. Stopping it drains the HTTP server first
 * (`DrainOnShutdownLive`, built last so released first), then the rest comes down; the database (provided
 * from outside) closes after it.
 */
export const ApplicationLive = DrainOnShutdownLive.pipe(
  Layer.provide(HttpLive.pipe(
    HttpMiddleware.withTracerDisabledWhen(isHealthCheck),
    HttpServer.withLogAddress,
    Layer.provideMerge(DrainingServerLive)
  )),
  Layer.merge(WorkersLive),
  Layer.merge(MetricsServerLive),
  Layer.provide(servicesWith(PlatformLive)),
  Layer.provide(ObservabilityLive)
)

/** The whole application: the migrated database (`DATABASE_URL` or embedded), services, API, server, sweeper. */
export const MainLive = ApplicationLive.pipe(Layer.provide(MigratedDatabaseLive))
