import * as HttpServer from "effect/http/HttpServer"
import type * as SqlClient from "effect/sql/SqlClient"
import { HotelApi } from "@hotel/api/Api"
import { HttpBlocksLive } from "@hotel/http/blocks/Http"
import { HttpInventoryLive } from "@hotel/http/inventory/Http"
import { HttpAriLive } from "@hotel/http/ari/Http"
import { HttpBookingLive } from "@hotel/http/booking/Http"
import { HttpChangesLive } from "@hotel/http/changes/Http"
import { HttpCatalogLive } from "@hotel/http/catalog/Http"
import { EventsLive } from "@hotel/persistence/events/EventsLive"
import { HttpEventsLive } from "@hotel/http/events/Http"
import { HttpFoliosLive } from "@hotel/http/folios/Http"
import { HttpGuestsLive } from "@hotel/http/guests/Http"
import { apiWith, serveApi } from "@hotel/http/HttpLive"
import { Authenticator } from "@hotel/http/platform/Authenticator"
import { ClientAddress } from "@hotel/http/platform/ClientAddress"
import { HttpPlatformLive } from "@hotel/http/platform/Http"
import { Readiness } from "@hotel/http/platform/Readiness"
import { HttpQuotesLive } from "@hotel/http/quotes/Http"
import { HttpRatesLive } from "@hotel/http/rates/Http"
import { HttpStaysLive } from "@hotel/http/stays/Http"
import { HttpWebhooksLive } from "@hotel/http/webhooks/Http"
import { HoldSweeperLive } from "@hotel/persistence/booking/HoldSweeper"
import { BlockReleaserLive } from "@hotel/persistence/blocks/BlockReleaser"
import { FxRepository } from "@hotel/persistence/catalog/FxRepository"
import { EventPurgeLive } from "@hotel/persistence/events/EventPurge"
import { DatabaseUrl } from "@hotel/persistence/database/DatabaseUrl"
import { ApiKeyRepository } from "@hotel/persistence/platform/ApiKeyRepository"
import { IdempotencyKeys } from "@hotel/persistence/platform/IdempotencyKeys"
import { MaintenanceRepository } from "@hotel/persistence/platform/MaintenanceRepository"
import { PlatformLive } from "@hotel/persistence/platform/Platform"
import type { RateLimiter } from "@hotel/persistence/platform/RateLimiter"
import { PropertyImport } from "@hotel/persistence/property/PropertyImport"
import { WebhookWorkerLive } from "@hotel/persistence/webhooks/WebhookDispatcher"
import { WebhookPolicy } from "@hotel/persistence/webhooks/WebhookPolicy"
import * as Layer from "effect/Layer"
import { LoggingLive } from "./observability/Logging.js"
import { MetricsServerLive } from "./observability/MetricsServer.js"
import { TracingLive, withServerSpans } from "./observability/Tracing.js"
import { MigratedDatabaseLive } from "./runtime/Database.js"
import { DrainingServerLive, DrainOnShutdownLive } from "./runtime/DrainingServer.js"
import { seedDemoWhenEmpty } from "./runtime/FirstStart.js"

// The composition root: every live layer of the running application is chosen here, and only here. The CLI
// (`cli/`) and the tests' server (`test/utils/TestServer.ts`) build from these parts.

/** The API's features, one line each: the handlers of a feature's groups with the services they call. */
export const FeaturesLive = Layer.mergeAll(
  HttpPlatformLive,
  HttpCatalogLive,
  HttpRatesLive,
  HttpQuotesLive,
  HttpGuestsLive,
  HttpBookingLive,
  HttpChangesLive,
  HttpFoliosLive,
  HttpStaysLive,
  HttpEventsLive,
  HttpWebhooksLive,
  HttpBlocksLive,
  HttpInventoryLive,
  HttpAriLive
)

/** `HotelApi` with every feature, behind the gateway, on whatever `HttpServer` is provided. */
export const HttpLive = serveApi(apiWith(HotelApi, FeaturesLive))

/** The platform services of the request pipeline: `PlatformLive` (Postgres) or `PlatformInMemory` (tests). */
export type PlatformLayer = Layer.Layer<RateLimiter | IdempotencyKeys | MaintenanceRepository, never, SqlClient.SqlClient>

/**
 * What every feature takes from outside, with the given platform services: the authenticator and its keys,
 * the event outbox (with the renderer of events' payloads), the client address, the webhook policy, and the
 * readiness the health check reports (which a stop turns off).
 */
export const servicesWith = (platform: PlatformLayer) =>
  Layer.mergeAll(Authenticator.layer, EventsLive, ClientAddress.layer, WebhookPolicy.layer, Readiness.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(ApiKeyRepository.layer, platform))
  )

/** The services of the `hotel` commands: the property import, API keys, exchange rates, maintenance. */
export const AdminServicesLive = Layer.mergeAll(
  PropertyImport.layer.pipe(Layer.provide(EventsLive)),
  ApiKeyRepository.layer,
  FxRepository.layer,
  MaintenanceRepository.layer
)

/** The database of `DATABASE_URL` (or the embedded server) as it is: what `hotel migrate` migrates. */
export { DatabaseLive } from "./runtime/Database.js"

/** The commands' services over the migrated database. */
export const AdminLive = AdminServicesLive.pipe(Layer.provideMerge(MigratedDatabaseLive))

/**
 * The background work of every process: the sweeper of expired holds, the announcer of blocks' automatic
 * releases, webhook delivery, the event purge and
 * the purge of expired idempotency keys.
 */
export const WorkersLive = Layer.mergeAll(
  HoldSweeperLive,
  BlockReleaserLive,
  WebhookWorkerLive.pipe(Layer.provide(WebhookPolicy.layer)),
  EventPurgeLive,
  IdempotencyKeys.purgeEvery()
)

/** Logs (`LOG_FORMAT`, `LOG_LEVEL`) and traces (`OTEL_EXPORTER_OTLP_ENDPOINT`); see docs/operations.md. */
export const ObservabilityLive = Layer.merge(LoggingLive, TracingLive)

/**
 * The API on `HOST:PORT` (`DrainingServerLive`), the metrics on `METRICS_PORT` (when set) and the background
 * workers, over whatever `SqlClient` is provided. Stopping it drains the HTTP server first
 * (`DrainOnShutdownLive`, built last so released first), then the rest comes down; the database (provided
 * from outside) closes after it.
 */
export const ApplicationLive = DrainOnShutdownLive.pipe(
  Layer.provide(HttpLive.pipe(
    withServerSpans,
    HttpServer.withLogAddress,
    Layer.provideMerge(DrainingServerLive)
  )),
  Layer.merge(WorkersLive),
  Layer.merge(MetricsServerLive),
  Layer.provide(servicesWith(PlatformLive)),
  Layer.provide(ObservabilityLive)
)

/**
 * The primary of several serving processes (`PROCESSES` above 1): the migrated database (the demo on an
 * empty embedded one, printed once) and its URL, which it hands to the processes it starts.
 */
export const PrimaryLive = Layer.effectDiscard(seedDemoWhenEmpty).pipe(
  Layer.provideMerge(AdminLive),
  Layer.provideMerge(DatabaseUrl.fromEnvOrEmbedded)
)

/**
 * `hotel serve`: the migrated database (`DATABASE_URL`, or the embedded server), the demo on an empty embedded
 * database (printed once, before the server listens), then the application.
 */
export const MainLive = ApplicationLive.pipe(
  Layer.provide(Layer.effectDiscard(seedDemoWhenEmpty)),
  Layer.provide(AdminLive)
)
