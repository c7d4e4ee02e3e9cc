import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpRouter from "effect/http/HttpRouter"
import type { Scope } from "@hotel/domain"
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import * as FindMyWay from "find-my-way-ts"
import { ETagged } from "../common/EntityTags.js"
import { CacheControl, NotFoundAs, type NotFoundError, Public, RequiredScope } from "../common/Security.js"

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

/**
 * Whether a path (or a URL as sent) is a health check's: a load balancer asks every few seconds, so these are
 * neither logged at info level nor traced.
 */
export const isHealthCheck = (path: string): boolean => path.startsWith("/health/")

const endpointKey = (method: string, path: string) => `${method} ${path}`

/** The annotations of every endpoint of `api`, by the method and path the router registered it under. */
export const endpointIndex = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): ReadonlyMap<string, EndpointInfo> => {
  const index = new Map<string, EndpointInfo>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations }) => {
      index.set(endpointKey(endpoint.method, endpoint.path), {
        method: endpoint.method,
        path: endpoint.path,
        isPublic: Context.getOption(mergedAnnotations, Public).pipe(Option.isSome),
        scope: Context.getOption(mergedAnnotations, RequiredScope),
        cacheControl: Context.getOption(mergedAnnotations, CacheControl),
        notFound: Context.getOption(mergedAnnotations, NotFoundAs),
        entityTag: Context.getOption(mergedAnnotations, ETagged).pipe(Option.isSome)
      })
    }
  })
  return index
}

/** The endpoint the router chose for the request being handled (its `RouteContext`). */
export const routedEndpoint = (index: ReadonlyMap<string, EndpointInfo>, route: HttpRouter.RouteContext) =>
  Option.fromNullishOr(index.get(endpointKey(route.route.method, String(route.route.path))))

export interface RouterLookup {
  /** The method and path template of the route the router serves `url` with, if any. */
  readonly find: (method: string, url: string) => Option.Option<{ readonly method: string; readonly path: string }>
  /** The methods the router serves `url` with (for `405` and its `Allow` header). */
  readonly methods: (url: string) => ReadonlyArray<string>
  readonly endpoint: (method: string, url: string) => Option.Option<EndpointInfo>
  /** The endpoint of a route `find` answered. */
  readonly endpointOf: (route: Option.Option<{ readonly method: string; readonly path: string }>) => Option.Option<EndpointInfo>
}

/**
 * Questions about routing answered by the router itself: its own route list (the API's endpoints, the API
 * description, the docs page) in the matcher it routes with, under the same configuration. So whatever
 * the router serves, 404s or normalises (case, trailing slash, a too-long parameter, dot segments) is what
 * these answers say. Built on first use, once every layer has registered its routes.
 */
export const makeRouterLookup = Effect.gen(function*() {
  const { api } = yield* HttpApi.Api
  const router = yield* HttpApiBuilder.Router
  const config = yield* FiberRef.get(HttpRouter.currentRouterConfig)
  const index = endpointIndex(api)
  const lookupOf = (routes: HttpRouter.HttpRouter<unknown, unknown>): RouterLookup => {
    const matcher = FindMyWay.make<{ readonly method: string; readonly path: string }>(config)
    const methods = new Set<string>()
    Chunk.forEach(routes.routes, (route) => {
      const entry = { method: route.method, path: String(route.path) }
      if (route.method === "*") matcher.all(route.path, entry)
      else {
        methods.add(route.method)
        matcher.on(route.method, route.path, entry)
      }
    })
    // HEAD falls back to GET, as in the router.
    const find = (method: string, url: string) =>
      Option.fromNullishOr(matcher.find(method, url) ?? (method === "HEAD" ? matcher.find("GET", url) : undefined))
        .pipe(Option.map((result) => result.handler))
    const endpointOf = (route: Option.Option<{ readonly method: string; readonly path: string }>) =>
      Option.flatMap(route, ({ method, path }) => Option.fromNullishOr(index.get(endpointKey(method, path))))
    const served = (url: string) => Array.from(methods).filter((method) => matcher.find(method, url) !== undefined)
    return {
      find,
      methods: (url) => {
        const allow = served(url)
        return allow.includes("GET") ? [...allow, "HEAD"] : allow
      },
      endpoint: (method, url) => endpointOf(find(method, url)),
      endpointOf
    }
  }
  // Built once, on the first request. Not `Effect.cached`: every read of a memoised effect copies the fiber's
  // refs twice to replay what computing it changed, and the gateway and the request context read it on
  // every request. Two requests racing to build it build the same lookup.
  let built: RouterLookup | undefined
  return Effect.suspend(() =>
    built !== undefined ? Effect.succeed(built) : Effect.map(router.router, (routes) => (built = lookupOf(routes)))
  )
})
