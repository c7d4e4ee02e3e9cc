import type { HttpApiSchemaError } from "effect/http-api/HttpApiError"
import { InvalidParameters } from "@hotel/domain"
import * as Option from "effect/Option"
import * as SchemaIssue from "effect/SchemaIssue"
import type { NotFoundError } from "../common/Security.js"

/** `["add_ons", 2, "quantity"]` → `add_ons[2].quantity`, the path of the field as sent. */
export const paramPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) =>
      typeof key === "number" ? `${acc}[${key}]` : acc.length === 0 ? String(key) : `${acc}.${String(key)}`,
    ""
  )

/** What a schema's own message looks like when no one wrote one: a description of the schema. */
const isSchemaDump = (message: string): boolean =>
  /Expected |readonly |\||actual |\{ |<|filter|Unable to decode|Invalid data |Missing key|Forbidden/.test(message)

const expectedKind = (message: string): string => {
  const expected = /^Expected (\w+)/.exec(message)?.[1]
  switch (expected) {
    case "string":
    case "number":
    case "boolean":
      return `must be a ${expected}`
    case "array":
      return "must be an array"
    case "object":
      return "must be an object"
    case "null":
      return "must be null"
    default:
      return "is invalid"
  }
}

/**
 * A failure in words a person can act on: the message written on the schema ("must be a UUID"), else one by
 * the kind of failure, never the schema's own description of itself.
 */
const humanMessage: SchemaIssue.LeafHook = (issue) => {
  if (issue._tag === "MissingKey") return "is required"
  if (issue._tag === "UnexpectedKey") return "is not allowed"
  const message = SchemaIssue.defaultLeafHook(issue).replace(/\s+/g, " ").trim()
  return message.length > 0 && !isSchemaDump(message) ? message : expectedKind(message)
}

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: humanMessage,
  // A check without a message of its own says what kind of value failed it.
  checkHook: (issue) => {
    const message = SchemaIssue.defaultCheckHook(issue)
    return message === undefined || isSchemaDump(message) ? undefined : message
  }
})

const segment = (key: PropertyKey | { readonly key: PropertyKey }): PropertyKey => (typeof key === "object" ? key.key : key)

/** What the request the framework could not decode was, as far as the message is concerned. */
export interface DecodedRequest {
  /** The path id's 404 of the endpoint (`NotFoundAs`). */
  readonly notFound: Option.Option<NotFoundError>
  /** Whether the request's query string names `name` more than once. */
  readonly repeatedInQuery: (name: string) => boolean
}

/**
 * The framework's decode failure as the contract's error: an `{id}` in the path that cannot be an id is the
 * resource's 404, anything else a 400 `invalid_parameters` naming the first failing field.
 */
export const fromSchemaError = (
  error: HttpApiSchemaError,
  request: DecodedRequest
): InvalidParameters | InstanceType<NotFoundError> => {
  const issue = formatIssues(error.cause.issue).issues[0]
  const path = (issue?.path ?? []).map(segment)
  const first = path[0]
  // A query parameter sent more than once arrives as a list where text is expected: the message says what to
  // change rather than "must be a string".
  const problem = issue === undefined
    ? "is invalid"
    : error.kind === "Query" && path.length === 1 && typeof first === "string" && request.repeatedInQuery(first)
    ? "must be given only once"
    : issue.message
  if (error.kind === "Params" && typeof first === "string") {
    return Option.match(request.notFound, {
      onNone: (): InvalidParameters | InstanceType<NotFoundError> =>
        new InvalidParameters({ message: `${first} ${problem}`, param: first }),
      onSome: (NotFound) => new NotFound({ message: "No such resource" })
    })
  }
  if (path.length === 0) return new InvalidParameters({ message: "The request body must be a JSON object" })
  const param = paramPath(path)
  return new InvalidParameters({ message: `${param} ${problem}`, param })
}
