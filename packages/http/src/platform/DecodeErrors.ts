import type { HttpApiSchemaError } from "effect/http-api/HttpApiError"
import { InvalidParameters } from "@hotel/domain"
import * as Option from "effect/Option"
import * as SchemaAST from "effect/SchemaAST"
import * as SchemaIssue from "effect/SchemaIssue"
import type { NotFoundError } from "@hotel/api/common/Security"

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

/** A message of the schema's, in words a person can act on: never the schema's own description of itself. */
const humanised = (message: string): string => {
  const text = message.replace(/\s+/g, " ").trim()
  return text.length > 0 && !isSchemaDump(text) ? text : expectedKind(text)
}

/** What a value of `ast` must be: its own message, else its kind ("must be a string"). */
const expectation = (ast: SchemaAST.AST): string => humanised(SchemaIssue.defaultLeafHook(new SchemaIssue.InvalidType(ast)))

/**
 * A value that is none of a union's members: the union's message, else what its first member that is not
 * `null` must be (`NullOr(DecimalField)` sent a number says what a decimal string looks like).
 */
const unionExpectation = (ast: SchemaAST.AST): string => {
  const own = ast.annotations?.message
  if (typeof own === "string") return own
  const member = SchemaAST.isUnion(ast) ? ast.types.find((type) => !SchemaAST.isNull(type)) : undefined
  return member === undefined ? expectation(ast) : expectation(member)
}

const leafMessage = (issue: SchemaIssue.Leaf): string => {
  if (issue._tag === "MissingKey") return "is required"
  if (issue._tag === "UnexpectedKey") return "is not allowed"
  return humanised(SchemaIssue.defaultLeafHook(issue))
}

interface Failure {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
  /** The value was not text where text was expected (a query parameter sent twice arrives as a list). */
  readonly notText: boolean
}

/** The first failure of `issue` with the path to it: where the decoder stopped, and why. */
const firstFailure = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>, message?: string): Failure => {
  switch (issue._tag) {
    case "Filter": {
      // A check's own message, else the failure under it says what went wrong.
      const own = SchemaIssue.defaultCheckHook(issue)
      return firstFailure(issue.issue, path, message ?? (own === undefined || isSchemaDump(own) ? undefined : own))
    }
    case "Encoding":
      return firstFailure(issue.issue, path, message)
    case "Pointer":
      return firstFailure(issue.issue, [...path, ...issue.path], message)
    case "Composite":
    case "AnyOf": {
      const first = issue.issues[0]
      if (first !== undefined) return firstFailure(first, path, message)
      return { path, message: message ?? unionExpectation(issue.ast), notText: false }
    }
    default:
      return {
        path,
        message: message ?? leafMessage(issue),
        notText: issue._tag === "InvalidType" && SchemaAST.isString(issue.ast)
      }
  }
}

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
  const failure = firstFailure(error.cause.issue, [])
  const path = failure.path
  const first = path[0]
  // A query parameter sent more than once arrives as a list where text is expected: the message says what to
  // change rather than "must be a string".
  const repeated = error.kind === "Query" && failure.notText && path.length === 1 && typeof first === "string" &&
    request.repeatedInQuery(first)
  const problem = repeated ? "must be given only once" : failure.message
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
