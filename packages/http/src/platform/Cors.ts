import * as HttpEffect from "effect/http/HttpEffect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"

// Cross-origin requests, off unless `HOTEL_CORS_ORIGINS` lists origins (or is `*`).
//
// Not `HttpMiddleware.cors`: it answers every `OPTIONS` with 204 before anything else, so an unknown path, a
// plain `OPTIONS` (405 by the contract) and a preflight from a refused origin would all be 204; and with a
// single configured origin it sends that origin's `Access-Control-Allow-Origin` to every caller. Here a
// preflight is answered only for an allowed origin and a path the router serves (with that path's methods),
// after routing and before authentication, maintenance included, so the real request then gets its answer
// (401, 503, ...) with the CORS headers a browser needs to read it.

const allowedHeaders = "Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match"
const exposedHeaders = "X-Request-Id, ETag, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, Idempotent-Replayed"

type Origins = { readonly _tag: "Off" } | { readonly _tag: "Any" } | { readonly _tag: "List"; readonly origins: ReadonlySet<string> }

const isOrigin = (value: string) => URL.canParse(value) && new URL(value).origin === value

/** `HOTEL_CORS_ORIGINS`: comma-separated origins (`https://book.example.com`), or `*` for any. */
const OriginsConfig: Config.Config<Origins> = Config.schema(
  Schema.String.check(Schema.makeFilter(
    (raw: string) => raw.split(",").map((item) => item.trim()).every((item) => item === "" || item === "*" || isOrigin(item)),
    { message: "HOTEL_CORS_ORIGINS must be * or comma-separated origins such as https://book.example.com (scheme, host, optional port)" }
  )),
  "HOTEL_CORS_ORIGINS"
).pipe(
  Config.map((raw): Origins => {
    const items = raw.split(",").map((item) => item.trim()).filter((item) => item.length > 0)
    if (items.includes("*")) return { _tag: "Any" }
    return items.length === 0 ? { _tag: "Off" } : { _tag: "List", origins: new Set(items) }
  }),
  Config.withDefault<Origins>({ _tag: "Off" })
)

export interface Cors {
  /**
   * For a request from an allowed origin: its answer will carry `Access-Control-Allow-Origin` and the exposed
   * headers, and a preflight for a path served with `methods` is answered at once (`Some`).
   */
  readonly handle: (
    request: HttpServerRequest.HttpServerRequest,
    methods: () => ReadonlyArray<string>
  ) => Effect.Effect<Option.Option<HttpServerResponse.HttpServerResponse>, never, HttpServerRequest.HttpServerRequest>
}

const varyOnOrigin = HttpEffect.appendPreResponseHandler((_request, response) =>
  Effect.succeed(HttpServerResponse.setHeader(response, "vary", "Origin")))

/** Reads `HOTEL_CORS_ORIGINS` once, when the gateway's layer is built. */
export const makeCors = Effect.map(OriginsConfig, (origins): Cors => ({
  handle: (request, methods) => {
    const origin = request.headers["origin"]
    if (origins._tag === "Off") return Effect.succeed(Option.none())
    // With a list, every answer depends on the Origin (allowed ones get the CORS headers): a shared cache must
    // key on it, also for a request without one or from an origin not listed.
    if (origin === undefined || (origins._tag === "List" && !origins.origins.has(origin))) {
      return origins._tag === "List" ? Effect.as(varyOnOrigin, Option.none()) : Effect.succeed(Option.none())
    }
    const headers = {
      "access-control-allow-origin": origins._tag === "Any" ? "*" : origin,
      "access-control-expose-headers": exposedHeaders,
      vary: "Origin"
    }
    const decorate = HttpEffect.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeaders(response, headers)))
    const isPreflight = request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined
    const served = isPreflight ? methods() : []
    return Effect.as(
      decorate,
      served.length === 0 ? Option.none() : Option.some(HttpServerResponse.empty({
        status: 204,
        headers: {
          "access-control-allow-methods": served.join(", "),
          "access-control-allow-headers": allowedHeaders,
          "access-control-max-age": "600"
        }
      }))
    )
  }
}))
