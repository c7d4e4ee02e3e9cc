import type { HttpApiDecodeError } from "@effect/platform/HttpApiError"
import { InvalidParameters } from "@hotel/domain"
import * as Option from "effect/Option"
import type { NotFoundError } from "../Security.js"
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
  if (typeof first === "string" && path.length === 1 && inPath) {
    return Option.match(notFound, {
      onNone: (): InvalidParameters | InstanceType<NotFoundError> =>
        new InvalidParameters({ message: `${first} ${issue?.message ?? "is invalid"}`, param: first }),
      onSome: (NotFound) => new NotFound({ message: "No such resource" })
    })
  }
  if (path.length === 0) {
    return new InvalidParameters({ message: `The request body must be a JSON object: ${issue?.message ?? ""}`.trim() })
  }
  const param = paramPath(path)
  return new InvalidParameters({ message: `${param}: ${describe(issue?.message ?? "is invalid")}`, param })
}

// Schema's messages are written for developers ("Expected string, actual 12"); keep them, minus noise.
const describe = (message: string): string => message.replace(/\s+/g, " ").trim()
