import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

/** The `type` categories of the error envelope. */
export type ErrorType =
  | "invalid_request"
  | "authentication"
  | "permission"
  | "not_found"
  | "conflict"
  | "rate_limit"
  | "server"

export interface ErrorMeta {
  readonly code: string
  readonly type: ErrorType
  readonly status: number
}

// Schema v4 annotations are keyed by strings, not symbols.
export const ErrorMetaId = "@hotel/domain/ErrorMeta"

/** The annotation that ties an error class to its wire `code`, `type` and HTTP `status`. */
export const meta = (code: string, type: ErrorType, status: number) => ({ [ErrorMetaId]: { code, type, status } })

export const notFound = (code: string) => meta(code, "not_found", 404)
export const conflict = (code: string) => meta(code, "conflict", 409)
export const invalidRequest = (code: string) => meta(code, "invalid_request", 400)

/** Fields every error carries; `param` only on field-validation errors. */
export const errorFields = {
  message: Schema.String,
  param: Schema.optional(Schema.String)
}

const isErrorMeta = (u: unknown): u is ErrorMeta =>
  typeof u === "object" && u !== null && "code" in u && "type" in u && "status" in u

/** The annotation sits on the class's declaration node. */
export const getErrorMeta = (schema: Schema.Top): Option.Option<ErrorMeta> => {
  const found = AST.resolve(schema.ast)?.[ErrorMetaId]
  return isErrorMeta(found) ? Option.some(found) : Option.none()
}
