import * as Headers from "effect/http/Headers"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import {
  canonicalJson,
  entityTagOf,
  entityTagOfCanonical,
  ifNoneMatchMatches
} from "@hotel/persistence/events/EntityTag"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import type { ServedRoute } from "./Routes.js"

/**
 * A read's answer written once: the representation as canonical JSON (keys sorted), with its entity tag
 * hashed from those very bytes. The representation is the response schema's encoded form (the type says
 * so), so the framework's encoding, a second serialisation and a parse for the tag are all skipped; the
 * write services tag the same representation the same way (`entityTagOf`), so `If-Match` compares equal.
 */
export const taggedJson = <S extends Schema.Top>(
  _schema: S,
  encoded: S["Encoded"]
): HttpServerResponse.HttpServerResponse => {
  const text = canonicalJson(encoded)
  return HttpServerResponse.raw(text, {
    contentType: "application/json",
    contentLength: Buffer.byteLength(text),
    headers: Headers.fromInput({ etag: entityTagOfCanonical(text) })
  })
}

/** The tag a successful answer carries: set by `taggedJson`, else hashed from the body the encoder wrote. */
const tagOf = (response: HttpServerResponse.HttpServerResponse): string | undefined => {
  const given = response.headers["etag"]
  if (given !== undefined) return given
  const body = response.body
  return body._tag === "Uint8Array" ? entityTagOf(JSON.parse(body.text ?? new TextDecoder().decode(body.body))) : undefined
}

/**
 * The `ETag` of a successful read of an `ETagged` endpoint, computed here and only here (or by `taggedJson`,
 * from the bytes it writes): from the body the encoder wrote, through `entityTagOf`, the function the write
 * services use for `If-Match`. `If-None-Match` naming it turns the answer into 304 with no body and the same
 * headers (`ETag`, `Cache-Control`, ...).
 */
export const withEntityTag = (
  request: HttpServerRequest.HttpServerRequest,
  route: Option.Option<ServedRoute>,
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse => {
  const tagged = Option.exists(route, ({ endpoint }) => Option.exists(endpoint, (info) => info.entityTag))
  if (!tagged || response.status !== 200) return response
  if (request.method !== "GET" && request.method !== "HEAD") return response
  const tag = tagOf(response)
  if (tag === undefined) return response
  const ifNoneMatch = request.headers["if-none-match"]
  return ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, tag)
    ? HttpServerResponse.empty({ status: 304, headers: Headers.set(response.headers, "etag", tag) })
    : HttpServerResponse.setHeader(response, "etag", tag)
}
