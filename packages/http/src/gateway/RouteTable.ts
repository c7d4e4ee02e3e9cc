import * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type { Scope } from "@hotel/domain"
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import { CacheControl, NotFoundAs, type NotFoundError, Public, RequiredScope } from "../Security.js"

export interface RouteInfo {
  readonly method: string
  readonly path: string
  readonly segments: ReadonlyArray<string>
  readonly isPublic: boolean
  readonly scope: Option.Option<Scope>
  readonly cacheControl: Option.Option<string>
  readonly notFound: Option.Option<NotFoundError>
}

export type RouteMatch =
  | { readonly _tag: "Found"; readonly route: RouteInfo }
  | { readonly _tag: "MethodNotAllowed"; readonly allow: ReadonlyArray<string> }
  | { readonly _tag: "NotFound" }

// Matches the router's own rules: case-insensitive, trailing slash ignored.
const split = (path: string): ReadonlyArray<string> =>
  path.toLowerCase().split("/").filter((segment) => segment.length > 0)

const matches = (template: ReadonlyArray<string>, actual: ReadonlyArray<string>): boolean =>
  template.length === actual.length &&
  template.every((segment, i) => segment.startsWith(":") || segment === actual[i])

/** Routes served outside the `HttpApi` groups (the API description and its docs page). */
const extraRoutes: ReadonlyArray<{ readonly method: string; readonly path: string }> = [
  { method: "GET", path: "/openapi.json" },
  { method: "GET", path: "/docs" }
]

const collect = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): ReadonlyArray<RouteInfo> => {
  const routes: Array<RouteInfo> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations }) => {
      routes.push({
        method: endpoint.method,
        path: endpoint.path,
        segments: split(endpoint.path),
        isPublic: Context.getOption(mergedAnnotations, Public).pipe(Option.isSome),
        scope: Context.getOption(mergedAnnotations, RequiredScope),
        cacheControl: Context.getOption(mergedAnnotations, CacheControl),
        notFound: Context.getOption(mergedAnnotations, NotFoundAs)
      })
    }
  })
  for (const extra of extraRoutes) {
    routes.push({
      ...extra,
      segments: split(extra.path),
      isPublic: true,
      scope: Option.none(),
      cacheControl: Option.none(),
      notFound: Option.none()
    })
  }
  return routes
}

export interface RouteTable {
  readonly match: (method: string, path: string) => RouteMatch
}

/** The routes of `api`: `HotelApi`, or the API the server was given (a test's extension of it). */
export const makeRouteTable = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): RouteTable => {
  const routes = collect(api)
  return {
    match: (method, path) => {
      const actual = split(path)
      const candidates = routes.filter((route) => matches(route.segments, actual))
      if (candidates.length === 0) return { _tag: "NotFound" }
      // HEAD falls back to GET, as in the router.
      const wanted = method === "HEAD" ? ["HEAD", "GET"] : [method]
      const found = candidates.find((route) => wanted.includes(route.method))
      if (found !== undefined) return { _tag: "Found", route: found }
      const allow = Array.from(new Set(candidates.map((route) => route.method)))
      return { _tag: "MethodNotAllowed", allow: allow.includes("GET") ? [...allow, "HEAD"] : allow }
    }
  }
}
