import * as HttpServer from "effect/http/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as SqlClient from "effect/sql/SqlClient"
import { allScopes, type SalesContext, type Scope } from "@hotel/domain"
import { PlatformLive } from "@hotel/persistence/platform/Platform"
import { ApiKeyRepository } from "@hotel/persistence/platform/ApiKeyRepository"
import { PropertyImport, type PropertyImportResult } from "@hotel/persistence/property/PropertyImport"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as References from "effect/References"
import * as NetAddress from "effect/net/NetAddress"
import { makeNodeServer } from "../../src/runtime/NodeServer.js"
import { type ClientOptions, type HotelClient, makeClient } from "./client.js"
import { propertyFile } from "./fixtures.js"
import { type ApiResponse, request, type RequestOptions } from "./http.js"
import { AdminServicesLive, HttpLive, servicesWith } from "../../src/main.js"
import { TestSqlLive } from "./TestDatabase.js"

export interface KeyOptions {
  readonly scopes?: ReadonlyArray<Scope>
  readonly context?: SalesContext
  readonly propertyId?: string
  readonly expiresAt?: Date | null
  readonly maxLiveHolds?: number | null
  /** Requests a minute (default 600). */
  readonly rateLimit?: number | null
}

export interface TestApiService {
  readonly baseUrl: string
  /** The fixture property (`fixtures.ts`) imported into the fresh database. */
  readonly property: PropertyImportResult
  /** A key of the fixture property with every scope and the `back_office` context. */
  readonly key: string
  /** The typed client (`client.ts`) derived from `HotelApi`, calling with `key`. */
  readonly client: HotelClient
  /** A typed client calling with another key (`null`: none) and optional extra headers. */
  readonly clientFor: (key: string | null, options?: ClientOptions) => Effect.Effect<HotelClient>
  readonly request: (method: string, path: string, options?: RequestOptions) => Effect.Effect<ApiResponse>
  readonly get: (path: string, options?: RequestOptions) => Effect.Effect<ApiResponse>
  readonly post: (path: string, body?: unknown, options?: RequestOptions) => Effect.Effect<ApiResponse>
  readonly patch: (path: string, body?: unknown, options?: RequestOptions) => Effect.Effect<ApiResponse>
  readonly delete: (path: string, options?: RequestOptions) => Effect.Effect<ApiResponse>
  readonly createKey: (options?: KeyOptions) => Effect.Effect<string>
  /** Imports another property (fixture by default) and returns its ids. */
  readonly importProperty: (file?: unknown) => Effect.Effect<PropertyImportResult>
  readonly sql: SqlClient.SqlClient
}

export class TestApi extends Context.Service<TestApi, TestApiService>()("test/TestApi") {}

const uniqueCode = () => `T${globalThis.crypto.randomUUID().replace(/-/g, "").slice(0, 10).toUpperCase()}`

const make = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  const sql = yield* SqlClient.SqlClient
  const imports = yield* PropertyImport
  const keys = yield* ApiKeyRepository
  const address = server.address
  const baseUrl = NetAddress.isInetAddress(address) ? `http://127.0.0.1:${address.port}` : "http://127.0.0.1"

  const importProperty = (file?: unknown) =>
    imports.importDocument(file ?? propertyFile(uniqueCode())).pipe(Effect.orDie)
  const property = yield* importProperty()
  const createKey = (options: KeyOptions = {}) =>
    keys.create({
      propertyId: options.propertyId ?? property.property_id,
      scopes: options.scopes ?? allScopes,
      context: options.context ?? "back_office",
      label: "test",
      expiresAt: options.expiresAt ?? null,
      maxLiveHolds: options.maxLiveHolds ?? null,
      rateLimit: options.rateLimit ?? null
    }).pipe(Effect.orDie, Effect.map((created) => created.key))
  const key = yield* createKey()
  const send = request(baseUrl, key)
  const clientFor = (clientKey: string | null, options?: ClientOptions) => makeClient(baseUrl, clientKey, options)
  return TestApi.of({
    baseUrl,
    property,
    key,
    client: yield* clientFor(key),
    clientFor,
    request: send,
    get: (path, options) => send("GET", path, options),
    post: (path, body, options) => send("POST", path, { ...options, body: body ?? {} }),
    patch: (path, body, options) => send("PATCH", path, { ...options, body: body ?? {} }),
    delete: (path, options) => send("DELETE", path, options),
    createKey,
    importProperty,
    sql
  })
})

/**
 * The real clock, for the database layer under a test on the `TestClock`: the driver's pool runs its idle
 * timeout (a minute) on the clock it is built with, so on the test clock a jump of years (a test set in 2031)
 * would replay one timeout a minute since 1970. The pool keeps real time, as the application's does; what the
 * services read as now (holds' expiry, the refund tiers) is still the test clock of the request.
 */
const RealClockLive = Layer.sync(Clock.Clock, () => Clock.Clock.defaultValue())

/**
 * `TestApiLive` over another database layer than the test file's own (such as `TestDatabase.routed`'s), with
 * whatever else that layer provides.
 */
export const makeTestApiLiveOn = <A, E, D>(
  http: Layer.Layer<A, E, HttpLiveNeeds>,
  database: Layer.Layer<D>
) =>
  Layer.effect(TestApi, make).pipe(
    Layer.provideMerge(http),
    // The production server (its header bound: a long path is routed, not refused by Node; its keep-alive).
    Layer.provideMerge(NodeHttpServer.layer(makeNodeServer, { port: 0, host: "127.0.0.1" })),
    Layer.provide(AdminServicesLive),
    Layer.provideMerge(Layer.provide(database, RealClockLive)),
    // The server's access log (a line per request) would be most of a run's output; warnings and errors stay.
    Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn"))
  )

/**
 * `TestApiLive` serving another HTTP layer (`HttpLive` with other platform layers, or an extended API): the
 * parts of `main.ts`, over the test file's own database instead of the application's.
 */
export const makeTestApiLive = <A, E>(http: Layer.Layer<A, E, HttpLiveNeeds>) => makeTestApiLiveOn(http, TestSqlLive)

type HttpLiveNeeds = Layer.Services<typeof TestHttpLive>

// The services stay visible to tests (the sweeper of the expiry tests needs the event outbox).
export const TestHttpLive = HttpLive.pipe(Layer.provideMerge(servicesWith(PlatformLive)))

/**
 * The real server in-process on a random port over a fresh migrated database holding the fixture
 * property (rate limits, idempotency keys and maintenance in Postgres, as in production). Use with
 * `layer(TestApiLive, { excludeTestServices: true })` for real time, or without it to run the server on the
 * `TestClock`.
 */
export const TestApiLive = makeTestApiLive(TestHttpLive)
