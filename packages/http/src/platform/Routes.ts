import * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as FindMyWay from "effect/http/FindMyWay"
import * as HttpRouter from "effect/http/HttpRouter"
import type { Scope } from "@hotel/domain"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ETagged } from "@hotel/api/common/EntityTags"
import { CacheControl, NotFoundAs, type NotFoundError, Public, RequiredScope } from "@hotel/api/common/Security"

/** What an endpoint's annotations ask of the pipeline. */
export interface EndpointInfo {
  readonly method: string
  readonly path: string
  readonly isPublic: boolean
  readonly scope: Option.Option<Scope>
  readonly cacheControl: Option.Option<string>
  readonly notFound: Option.Option<NotFoundError>
  /** A successful read carries an `ETag` and honours `If-None-Match`. */
  readonly entityTag: boolean
}

/** A route the router serves: an endpoint of the API, or the API's description or docs page. */
export interface ServedRoute {
  readonly method: string
  readonly path: string
  readonly endpoint: Option.Option<EndpointInfo>
}

/**
 * Whether a path (or a URL as sent) is a health check's: a load balancer asks every few seconds, so these are
 * neither logged at info level nor traced.
 */
export const isHealthCheck = (path: string): boolean => path.startsWith("/health/")

/** The annotations of an endpoint, merged as the framework merges them (API, group, endpoint). */
export const endpointInfo = (method: string, path: string, annotations: Context.Context<never>): EndpointInfo => ({
  method,
  path,
  isPublic: Context.getOption(annotations, Public).pipe(Option.isSome),
  scope: Context.getOption(annotations, RequiredScope),
  cacheControl: Context.getOption(annotations, CacheControl),
  notFound: Context.getOption(annotations, NotFoundAs),
  entityTag: Context.getOption(annotations, ETagged).pipe(Option.isSome)
})

/** Every endpoint of `api` with its annotations, and `pages` (routes of the API that are no endpoint). */
export const routesOf = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  pages: ReadonlyArray<{ readonly method: string; readonly path: string }>
): ReadonlyArray<ServedRoute> => {
  const routes: Array<ServedRoute> = pages.map((page) => ({ ...page, endpoint: Option.none() }))
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations }) => {
      routes.push({
        method: endpoint.method,
        path: endpoint.path,
        endpoint: Option.some(endpointInfo(endpoint.method, endpoint.path, mergedAnnotations))
      })
    }
  })
  return routes
}

/** The routes the API layer registers with the router (`apiWith`, `HttpLive.ts`), for the questions below. */
export class ServedRoutes extends Context.Service<ServedRoutes, ReadonlyArray<ServedRoute>>()(
  "@hotel/http/platform/ServedRoutes"
) {}

const isPathInput = (path: string): path is FindMyWay.PathInput => path.startsWith("/")

export interface RouterLookup {
  /** The route the router serves `url` with, if any. */
  readonly find: (method: string, url: string) => Option.Option<ServedRoute>
  /** The methods the router serves `url` with (for `405` and its `Allow` header). */
  readonly methods: (url: string) => ReadonlyArray<string>
}

/**
 * Questions about routing answered as the router answers them: the routes it was given (the API's endpoints,
 * the API description, the docs page) in the matcher it routes with, under the same configuration. So
 * whatever the router serves, 404s or normalises (case, trailing slash, a too-long parameter, dot segments)
 * is what these answers say.
 */
export const makeRouterLookup: Effect.Effect<RouterLookup, never, ServedRoutes> = Effect.gen(function*() {
  const routes = yield* ServedRoutes
  const config = yield* HttpRouter.RouterConfig
  const matcher = FindMyWay.make<ServedRoute>(config)
  const methods = new Set<string>()
  for (const route of routes) {
    if (!isPathInput(route.path)) continue
    methods.add(route.method)
    matcher.on(route.method, route.path, route)
  }
  // HEAD falls back to GET, as in the router.
  const find = (method: string, url: string) =>
    Option.fromNullishOr(matcher.find(method, url) ?? (method === "HEAD" ? matcher.find("GET", url) : undefined))
      .pipe(Option.map((result) => result.handler))
  const served = (url: string) => Array.from(methods).filter((method) => matcher.find(method, url) !== undefined)
  return {
    find,
    methods: (url) => {
      const allow = served(url)
      return allow.includes("GET") ? [...allow, "HEAD"] : allow
    }
  }
})
