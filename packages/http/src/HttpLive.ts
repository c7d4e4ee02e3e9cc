import type * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiScalar from "effect/http-api/HttpApiScalar"
import * as HttpRouter from "effect/http/HttpRouter"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { unhandled } from "effect/Types"
import { ApiErrorsLive } from "./platform/ApiErrors.js"
import { AuthorizationLive } from "./platform/Authorization.js"
import { makeGateway } from "./platform/Gateway.js"
import { makeRequestContext } from "./platform/RequestContext.js"
import { RequestBodyLive } from "./platform/RequestBody.js"
import { makeRouterLookup, routesOf, ServedRoutes } from "./platform/Routes.js"

/** The routes of the API's description and docs page, served beside its endpoints. */
const pages = [{ method: "GET", path: "/openapi.json" }, { method: "GET", path: "/docs" }] as const

/**
 * The request pipeline's endpoint middleware (`common/Pipeline.ts`), which the handlers of every group are
 * built with. Needs the `Authenticator`, the `ClientAddress`, the `RateLimiter` and the `IdempotencyKeys`.
 */
export const PipelineLive = Layer.mergeAll(ApiErrorsLive, AuthorizationLive, RequestBodyLive)

/**
 * `api` (`HotelApi`, or a test's extension of it) with the handlers of its groups (the features' layers,
 * chosen in `packages/server/src/main.ts`) behind the request pipeline, its description (`/openapi.json`) and
 * docs page (`/docs`). Needs what the handlers and the pipeline need.
 */
export const apiWith = <Id extends string, Groups extends HttpApiGroup.Constraint, HE, HR>(
  api: HttpApi.HttpApi<Id, Groups>,
  handlers: Layer.Layer<HttpApiGroup.ToService<Id, Groups>, HE, HR>
) =>
  Layer.mergeAll(
    HttpApiBuilder.layer(api, { openapiPath: "/openapi.json" }).pipe(Layer.provide(Layer.provide(handlers, PipelineLive))),
    HttpApiScalar.layer(api, { path: "/docs" }),
    Layer.succeed(ServedRoutes, routesOf(api, pages))
  )

/**
 * Around the router, for every request: the request context (its id, the access log line, the fiber it is
 * served to its end in: `platform/RequestContext.ts`) around the gateway (CORS, maintenance, 404/405, the
 * answer's headers, defects: `platform/Gateway.ts`).
 */
const AroundRouterLive = HttpRouter.middleware(
  Effect.gen(function*() {
    const routes = yield* makeRouterLookup
    const withRequestContext = yield* makeRequestContext(routes)
    const gateway = yield* makeGateway(routes)
    return (app: Effect.Effect<HttpServerResponse.HttpServerResponse, unhandled>) => withRequestContext(gateway(app))
  }),
  { global: true }
)

/**
 * An API layer (`apiWith(...)`) served on whatever `HttpServer` is provided, behind the request context and
 * the gateway. Everything else it needs comes from outside (see `packages/server/src/main.ts`). The server
 * logs neither each request (the request context writes the access line) nor its address (the composition
 * root does).
 */
export const serveApi = <E, R>(api: Layer.Layer<ServedRoutes, E, R>) =>
  HttpRouter.serve(AroundRouterLive.pipe(Layer.provideMerge(api)), {
    disableLogger: true,
    disableListenLog: true
  })
