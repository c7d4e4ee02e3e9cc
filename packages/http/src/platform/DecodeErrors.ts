import type { HttpApiDecodeError } from "effect/http-api/HttpApiError"
import { InvalidParameters } from "@hotel/domain"
import * as Option from "effect/Option"
import type { NotFoundError } from "../common/Security.js"
import type { EndpointInfo } from "./Routes.js"

/** `["add_ons", 2, "quantity"]` → `add_ons[2].quantity`, the path of the field as sent. */
export const paramPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) =>
      typeof key === "number" ? `${acc}[${key}]` : acc.length === 0 ? String(key) : `${acc}.${String(key)}`,
    ""
  )

const pathParams = (endpoint: EndpointInfo): ReadonlyArray<string> =>
  endpoint.path.toLowerCase().split("/").filter((segment) => segment.startsWith(":")).map((segment) => segment.slice(1))

/**
 * The framework's decode error as the contract's: an `{id}` in the path that cannot be an id is the
 * resource's 404, anything else a 400 `invalid_parameters` naming the first failing field.
 */
export const fromDecodeError = (
  error: HttpApiDecodeError,
  endpoint: Option.Option<EndpointInfo>
): InvalidParameters | InstanceType<NotFoundError> => {
  const issue = error.issues[0]
  const path = issue?.path ?? []
  const first = path[0]
  const notFound = Option.flatMap(endpoint, (info) => info.notFound)
  const inPath = Option.exists(endpoint, (info) => typeof first === "string" && pathParams(info).includes(first.toLowerCase()))
  const problem = issue === undefined
    ? "is invalid"
    : repeatedInQuery(issue, endpoint)
    ? "must be given only once"
    : humanMessage(issue)
  if (typeof first === "string" && path.length === 1 && inPath) {
    return Option.match(notFound, {
      onNone: (): InvalidParameters | InstanceType<NotFoundError> =>
        new InvalidParameters({ message: `${first} ${problem}`, param: first }),
      onSome: (NotFound) => new NotFound({ message: "No such resource" })
    })
  }
  if (path.length === 0) return new InvalidParameters({ message: "The request body must be a JSON object" })
  const param = paramPath(path)
  return new InvalidParameters({ message: `${param} ${problem}`, param })
}

/**
 * A query parameter sent more than once arrives as a list where text is expected; on a read (no body) nothing
 * else yields a list, so the message says what to change rather than "must be a string".
 */
const repeatedInQuery = (issue: HttpApiDecodeError["issues"][number], endpoint: Option.Option<EndpointInfo>): boolean =>
  issue.path.length === 1 && /^Expected string, actual \[/.test(issue.message) &&
  Option.exists(endpoint, (info) => info.method === "GET" || info.method === "DELETE")

/** What a schema's own message looks like when no one wrote one: a dump of the schema. */
const isSchemaDump = (message: string): boolean =>
  /Expected |readonly |\||actual |\{ |<|filter|Unable to decode/.test(message)

const expectedKind = (message: string): string => {
  const expected = /^Expected (\w+)/.exec(message)?.[1]
  switch (expected) {
    case "string":
    case "number":
    case "boolean":
      return `must be a ${expected}`
    case "ReadonlyArray":
    case "Array":
      return "must be an array"
    case "null":
      return "must be null"
    default:
      return message.startsWith("Expected {") ? "must be an object" : "is invalid"
  }
}

/**
 * The first issue in words a person can act on: the message written on the schema ("must be a UUID"),
 * else one by the kind of failure, never the schema's own description of itself.
 */
export const humanMessage = (issue: HttpApiDecodeError["issues"][number]): string => {
  const message = issue.message.replace(/\s+/g, " ").trim()
  if (issue._tag === "Missing") return "is required"
  if (issue._tag === "Unexpected") return "is not allowed"
  if (message.length > 0 && !isSchemaDump(message)) return message
  return expectedKind(message)
}
