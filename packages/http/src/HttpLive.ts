import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiScalar from "@effect/platform/HttpApiScalar"
import * as HttpServer from "@effect/platform/HttpServer"
import { ApiKeyRepository } from "@hotel/persistence/ApiKeyRepository"
import { CatalogRepository } from "@hotel/persistence/CatalogRepository"
import { RatePlanRepository } from "@hotel/persistence/RatePlanRepository"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { HotelApi } from "./Api.js"
import { Authenticator } from "./gateway/Authenticator.js"
import { AuthorizationLive } from "./gateway/CurrentKey.js"
import { GatewayLive } from "./gateway/Gateway.js"
import { withRequestContext } from "./gateway/RequestContext.js"
import { CatalogHandlers } from "./handlers/CatalogHandlers.js"
import { HealthHandlers } from "./handlers/HealthHandlers.js"
import { MeHandlers } from "./handlers/MeHandlers.js"
import { RatePlanReadHandlers } from "./handlers/RatePlanReadHandlers.js"

const HandlersLive = Layer.mergeAll(MeHandlers, HealthHandlers, CatalogHandlers, RatePlanReadHandlers)

const RepositoriesLive = Layer.mergeAll(
  ApiKeyRepository.Default,
  CatalogRepository.Default,
  RatePlanRepository.Default
)

const ApiLive = HttpApiBuilder.api(HotelApi).pipe(
  Layer.provide(HandlersLive),
  Layer.provide(AuthorizationLive)
)

/**
 * The whole API served on whatever `HttpServer` is provided; needs only a `SqlClient`.
 * The request context wraps the API's app so the error encoder sees the request id.
 */
export const HttpLive = Layer.unwrapEffect(
  Effect.map(HttpApiBuilder.httpApp, (app) => HttpServer.serve(withRequestContext(app)))
).pipe(
  Layer.provide(GatewayLive),
  Layer.provide(HttpApiScalar.layer({ path: "/docs" })),
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
  Layer.provide(HttpApiBuilder.Router.Live),
  Layer.provide(HttpApiBuilder.Middleware.layer),
  Layer.provide(ApiLive),
  Layer.provide(Authenticator.layer),
  Layer.provide(RepositoriesLive)
)
