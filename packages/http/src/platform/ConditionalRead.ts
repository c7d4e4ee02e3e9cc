import * as Headers from "@effect/platform/Headers"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { entityTagOf, ifNoneMatchMatches } from "@hotel/persistence/events/EntityTag"
import * as Option from "effect/Option"
import type { EndpointInfo } from "./Routes.js"

/**
 * The `ETag` of a successful read of an `ETagged` endpoint, computed here and only here: from the body the
 * encoder wrote, through `entityTagOf`, the function the write services use for `If-Match`. `If-None-Match`
 * naming it turns the answer into 304 with no body and the same headers (`ETag`, `Cache-Control`, ...).
 */
export const withEntityTag = (
  request: HttpServerRequest.HttpServerRequest,
  endpoint: Option.Option<EndpointInfo>,
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse => {
  const tagged = Option.exists(endpoint, (info) => info.entityTag)
  const body = response.body
  if (!tagged || response.status !== 200 || body._tag !== "Uint8Array") return response
  if (request.method !== "GET" && request.method !== "HEAD") return response
  const tag = entityTagOf(JSON.parse(new TextDecoder().decode(body.body)))
  const ifNoneMatch = request.headers["if-none-match"]
  return ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, tag)
    ? HttpServerResponse.empty({ status: 304, headers: Headers.set(response.headers, "etag", tag) })
    : HttpServerResponse.setHeader(response, "etag", tag)
}
